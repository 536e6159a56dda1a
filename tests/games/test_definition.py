"""Validation and canonical keys of definitions."""

import pytest

from catalog.errors import BadInput
from catalog.games.definition import (
    MAX_ALTER_CELLS,
    MAX_STEP,
    DefinitionError,
    canonicalize,
    parse_json,
)

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}


def key(d):
    return canonicalize(d).key


def test_order_and_duplicates_do_not_matter():
    shuffled = {"rays": [[1, 1], [0, 1], [1, 0], [0, 1]], "moves": [], "special": []}
    assert key(shuffled) == key(WYTHOFF)
    assert key(WYTHOFF) == key({**WYTHOFF, "alter": {"P": [], "N": []}})


def test_boxes_equal_their_cells():
    cells = [[x, y] for x in range(2) for y in range(3)]
    assert key({**WYTHOFF, "alter": {"P_boxes": [[0, 0, 2, 3]]}}) == key(
        {**WYTHOFF, "alter": {"P": cells[::-1]}}
    )


def test_moves_inside_rays_and_multiples_of_rays_are_dropped():
    assert key({"rays": [[1, 0], [0, 1], [1, 1], [2, 2]], "moves": [[3, 3]]}) == key(
        WYTHOFF
    )
    # (2, 1) is not on any ray: a different game.
    assert key({**WYTHOFF, "moves": [[2, 1]]}) != key(WYTHOFF)
    # A ray (2, 2) alone is not the ray (1, 1).
    assert key({"rays": [[2, 2]]}) != key({"rays": [[1, 1]]})


@pytest.mark.parametrize("ray", [[1, 0], [0, 1], [1, 1]])
def test_a_move_equal_to_a_ray_is_dropped(ray):
    game = canonicalize({**WYTHOFF, "moves": [ray, [1, 2]]})
    assert game.moves == ((1, 2),)
    assert game.key == key({**WYTHOFF, "moves": [[1, 2]]})


def test_different_games_differ():
    assert key(WYTHOFF) != key({**WYTHOFF, "alter": {"N": [[0, 0]]}})
    assert key({**WYTHOFF, "alter": {"N": [[0, 0]]}}) != key(
        {**WYTHOFF, "alter": {"P": [[0, 0]]}}
    )


@pytest.mark.parametrize(
    ("definition", "message"),
    [
        ({"rays": [[0, 0]]}, r"rays\[0\]: \(0, 0\)"),
        ({"rays": [[1, -1]]}, r"rays\[0\]: components must be non-negative"),
        ({"moves": [[1]]}, r"moves\[0\]: must be a pair"),
        ({"moves": [[1.5, 2]]}, r"moves\[0\]: components must be integers"),
        ({"rays": [[MAX_STEP + 1, 0]]}, r"rays\[0\]: components must be at most"),
        ({"special": ["wild"]}, r"special: unknown rule 'wild'"),
        ({"alter": {"P": [[1, 1]], "N": [[1, 1]]}}, r"cell \(1, 1\) is forced both"),
        ({"alter": {"P": [[-1, 0]]}}, r"alter.P\[0\]: components must be non-negative"),
        ({"alter": {"P_boxes": [[0, 0, MAX_ALTER_CELLS, 2]]}}, r"alter.P_boxes\[0\]"),
        ({"alter": {"Q": []}}, r"alter: unknown field 'Q'"),
        ({"ray": []}, r"definition: unknown field 'ray'"),
        ([], r"definition must be a JSON object"),
    ],
)
def test_bad_definitions_name_the_field(definition, message):
    with pytest.raises(DefinitionError, match=message):
        canonicalize(definition)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{rays: }", "not valid JSON"),
        ("[" * 60_000 + "]" * 60_000, "nested 60000 levels deep"),
        ('{"rays": [[1, 0]], "rays": [[0, 1]]}', "key 'rays' given twice"),
        ('{"alter": {"P": [], "P": [[0, 0]]}}', "key 'P' given twice"),
        ('{"rays": [[1' + "0" * 5000 + ", 0]]}", "a number has more than 400 digits"),
        ('{"rays": [[1, 0]]}\x00', "must not contain NUL"),
    ],
)
def test_bad_json(text, message):
    with pytest.raises(BadInput, match=message):
        parse_json(text)


def test_brackets_inside_strings_are_not_nesting():
    # Deep brackets in a string are text: the definition fails on the rule name.
    with pytest.raises(DefinitionError, match="unknown rule"):
        parse_json('{"special": ["' + "[" * 100 + '"]}')
    assert parse_json('{"rays": [[1, 0]], "alter": {"P": [[0, 0]]}}').forced_p


def test_definition_error_is_a_value_error():
    assert issubclass(DefinitionError, ValueError)
