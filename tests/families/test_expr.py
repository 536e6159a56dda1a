"""Constraints of family files: what they may say, what they answer."""

import pytest

from catalog.families.expr import Constraint, wythoff_p

NAMES = {"k", "l", "rays"}


def test_wythoff_p_at_any_size_and_order():
    assert wythoff_p(0, 0) and wythoff_p(1, 2) and wythoff_p(5, 3)
    assert not wythoff_p(1, 1) and not wythoff_p(0, 1)
    assert wythoff_p(10**30, 10**30) is False
    assert not wythoff_p(-1, -1) and not wythoff_p(-1, 0)


def test_a_constraint_answers_with_its_parameters_and_functions():
    rule = Constraint("k < l and has(rays, 1, 2) or size(rays) == 3", NAMES)
    assert rule({"k": 1, "l": 2, "rays": [[1, 2]]})
    assert not rule({"k": 2, "l": 2, "rays": [[1, 2]]})
    assert rule({"k": 9, "l": 2, "rays": [[0, 1], [1, 1], [2, 1]]})
    assert Constraint("not (k + l) // 2 % 3 == -1 * 0", NAMES)({"k": 1, "l": 1})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("wythoff_p(__import__('os'), 1)", "only the functions"),
        ("has(rays, k.real, 1)", "Attribute is not allowed"),
        ("size(m)", "unknown name 'm'"),
        ("size(rays=rays)", "positional arguments only"),
        ("k in l", "only = != < <= > >= comparisons"),
        ("k < 1.5", "literal 1.5: only integers and strings"),
        ("k == True", "literal True"),
        ("~k", "UnaryOp is not allowed"),
        ("k ** 2", "BinOp is not allowed"),
        ("", "non-empty"),
        ("k <", "is not an expression"),
    ],
)
def test_anything_else_is_refused_by_name(text, message):
    with pytest.raises(ValueError, match=message):
        Constraint(text, NAMES)


def test_a_constraint_is_text():
    for text in (5, None, ["k < l"]):
        with pytest.raises(ValueError, match="must be a non-empty expression"):
            Constraint(text, NAMES)


def test_constraints_are_equal_by_their_text():
    first, again = Constraint("k < l", NAMES), Constraint("k < l", NAMES)
    assert first == again and hash(first) == hash(again)
    assert first != Constraint("l > k", NAMES)
    assert first != "k < l"
    assert repr(first) == "Constraint('k < l')"
