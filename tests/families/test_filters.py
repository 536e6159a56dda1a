"""Which games each filter field applies to (a filter on a family that none
of whose members it applies to is refused, naming the field)."""

from __future__ import annotations

import pytest

from catalog.families.filters import FIELDS
from catalog.games.definition import canonicalize

WYTHOFF = [[1, 0], [0, 1], [1, 1]]


@pytest.mark.parametrize(
    ("definition", "applies"),
    [
        ({"rays": WYTHOFF, "moves": [[1, 2], [2, 1]]}, True),  # Maharaja Nim
        ({"rays": WYTHOFF}, False),  # no move adjoined
        ({"rays": [[1, 0], [0, 1]], "moves": [[1, 2], [2, 1]]}, False),  # Nim's rays
        ({"rays": WYTHOFF, "moves": [[1, 3]], "alter": {"N": [[0, 0]]}}, False),
    ],
    ids=["wythoff-plus-moves", "wythoff", "nim-plus-moves", "altered"],
)
def test_adjoined_moves_applies_to_wythoff_plus_moves_alone(definition, applies):
    assert FIELDS["adjoined_moves"].applies(canonicalize(definition)) is applies
