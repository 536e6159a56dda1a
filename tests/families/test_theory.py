"""The papers' statements over whole families, by the catalog's recipes."""

from __future__ import annotations

from catalog.compute import offsets


def test_every_box_has_theorem_2_s_offset(families):
    """Hu–Sleator–Tsin Theorem 2: Box(a,b) has offset (b − 1, a − 1), here by
    Theorem 3's recipe (saturation, then rows, diagonals and columns) for
    every member of the family, a, b <= 16."""
    members = families.members("box")
    assert len(members) == 256
    for m in members:
        found = offsets.theorem3(m.game, offsets.saturation(m.game))
        a, b = m.parameters["a"], m.parameters["b"]
        assert (found.dx, found.dy) == (b - 1, a - 1), m.label
