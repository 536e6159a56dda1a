"""The papers' statements over whole families, by the catalog's recipes."""

from __future__ import annotations

import numpy as np

from catalog import p_positions
from catalog.compute import offsets


def test_every_box_has_theorem_2_s_offset(families):
    """Hu–Sleator–Tsin Theorem 2: Box(a,b) has offset (b − 1, a − 1), here by
    Theorem 3's recipe (saturation, then rows, diagonals and columns) for
    every member of the family, a, b <= 32."""
    members = families.members("box")
    assert len(members) == 1024
    for m in members:
        found = offsets.theorem3(m.game, offsets.saturation(m.game))
        a, b = m.parameters["a"], m.parameters["b"]
        assert (found.dx, found.dy) == (b - 1, a - 1), m.label


def overlap_by_box(game, dx, dy, sizes):
    """The overlap the slow way: each box [0, n)² intersected on its own."""
    top = max(sizes)
    ours = p_positions(game, top + max(0, -dx, -dy)) + np.array([dx, dy])
    theirs = p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, top)
    out = []
    for n in sizes:
        a = {tuple(p) for p in ours.tolist() if 0 <= min(p) and max(p) < n}
        b = {tuple(p) for p in theirs.tolist() if max(p) < n}
        out.append((n, len(a & b) / len(a | b) if a | b else 1.0))
    return out


def test_overlap_counts_each_box_as_the_sets_do(families):
    """Theorem 1's overlap, counted in one pass, against set intersections
    box by box: boxes and cells, at their offset and off it."""
    sizes = (1, 16, 50, 64, 1000, 1024)
    games = families.members("box")[:40:7] + families.members("cell")[:30:6]
    for m in games:
        sat = offsets.saturation(m.game)
        found = offsets.theorem3(m.game, sat)
        for dx, dy in ((found.dx, found.dy), (found.dx - 3, found.dy + 2), (0, 0)):
            got = offsets.overlap(m.game, dx, dy, sizes, sat)
            assert got == overlap_by_box(m.game, dx, dy, sizes), (m.label, dx, dy)
