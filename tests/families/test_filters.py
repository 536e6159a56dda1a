"""Which games each filter field applies to (a filter on a family that none
of whose members it applies to is refused, naming the field)."""

from __future__ import annotations

import dataclasses

import pytest

from catalog.families.filters import FIELDS, parse_where
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


def test_fields_and_conditions_cannot_be_changed_in_place():
    """FIELDS is shared by every request of a process, and a parsed
    condition by the statement built from it."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        FIELDS["defects"].kind = "pair"  # type: ignore[misc]
    condition = parse_where("defects <= 2")
    assert (condition.field, condition.op, condition.value) == ("defects", "<=", 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        condition.value = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "number"), [("W000001", 1), ("w000042", 42), ("W100000", 100000)]
)
def test_an_entry_id_value_is_its_number(raw, number):
    from catalog.families.filters import parse_value

    assert parse_value("xref_class", "id", raw) == number


@pytest.mark.parametrize(
    "raw", ["W000000", "W1", "W0000001", "42", "W-00001", "X000001", ""]
)
def test_a_value_that_is_no_entry_id_is_refused(raw):
    """W000000 names no entry (IDs start at 1): refused like any non-ID."""
    from catalog.errors import CatalogError
    from catalog.families.filters import parse_value

    with pytest.raises(CatalogError, match="is not an entry ID"):
        parse_value("xref_class", "id", raw)


def family_and_members(name):
    from catalog.families.registry import load_families

    families = load_families()
    return families.by_name[name], families.members(name)


def test_a_family_parameter_is_a_condition_with_or_without_members():
    """`k=3` in (k,l)-Maharaja Nim names its parameter (position 0); a
    field is taken with the family alone, members not given."""
    from catalog.families.filters import check_field, parse_where

    family, members = family_and_members("maharaja")
    for given in (members, None):
        condition = parse_where("k=3", family, given)
        assert (condition.field, condition.op, condition.parameter) == ("k", "=", 0)
        assert parse_where("symmetric=true", family, given).value is True
        check_field("xref_class", family, given)  # every member has one
    assert parse_where("xref_class=W000004", family, members).value == 4


def test_a_subset_parameter_cannot_be_sorted():
    from catalog.errors import CatalogError
    from catalog.families.filters import parse_sort

    family, members = family_and_members("nimhoff")
    with pytest.raises(CatalogError, match="a subset parameter cannot be sorted"):
        parse_sort("-rays", family, members)
    family, members = family_and_members("maharaja")
    assert parse_sort("-k", family, members) == "-k"


def test_an_unknown_field_lists_the_fields_and_the_sortable_parameters():
    from catalog.errors import CatalogError
    from catalog.families.filters import parse_where

    family, members = family_and_members("maharaja")
    with pytest.raises(CatalogError, match=r"unknown field 'colour'.*, k, l\)"):
        parse_where("colour=3", family, members)
    family, members = family_and_members("nimhoff")
    with pytest.raises(CatalogError, match="unknown field") as refused:
        parse_where("colour=3", family, members)
    assert "rays" not in str(refused.value)  # a subset: no condition on it
