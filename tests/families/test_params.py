"""A family's parameters, one kind at a time: what a family file may say
(each refusal with its message), and each value's offset, code, label and
text. Written to kill the mutants of ``catalog/families/params.py``."""

from __future__ import annotations

import dataclasses

import pytest

from catalog.families.params import (
    MAX_INT,
    MAX_POOL,
    LabelError,
    Parameter,
    shell_index,
)

INT = {"name": "k", "type": "int"}
ENUM = {"name": "e", "type": "enum"}
SUBSET = {"name": "s", "type": "subset"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1], "must be an object with name and type"),
        ({"name": 5, "type": "int"}, "name: 5 must match"),
        ({"name": "Bad", "type": "int"}, "name: 'Bad' must match"),
        ({"name": "k", "type": "float"}, "type: 'float' must be one of"),
        ({**INT, "min": 1, "max": 2, "step": 1}, "step: unknown field"),
        ({**INT, "min": 1}, "max: missing field"),
        ({**INT, "min": 1, "zz": 0, "aa": 0}, "aa: unknown field"),
        ({**INT, "min": -1, "max": 2}, "min: must be an integer in 0..1000000"),
        ({**INT, "min": 1, "max": MAX_INT + 1}, "max: must be an integer in"),
        ({**INT, "min": True, "max": 2}, "min: must be an integer"),
        ({**INT, "min": 3, "max": 2}, "max: must be at least min"),
        ({**ENUM, "values": []}, "values: must be a non-empty"),
        ({**ENUM, "values": "PN"}, "values: must be a non-empty"),
        ({**ENUM, "values": ["P", 5]}, "values[1]: 5 must match"),
        ({**ENUM, "values": ["P", "1x"]}, "values[1]: '1x'"),
        (
            {**ENUM, "values": ["P", "P"]},
            "values: must not repeat",
        ),
        (
            {**SUBSET, "pool": []},
            "pool: must be a list of 1 to 16",
        ),
        ({**SUBSET, "pool": "x"}, "pool: must be a list"),
        (
            {**SUBSET, "pool": [[i, 1] for i in range(17)]},
            "pool: must be a list of 1 to 16 pairs",
        ),
        ({**SUBSET, "pool": [[1, 0], [0, 0]]}, "pool[1]: must be"),
        ({**SUBSET, "pool": [[-1, 2]]}, "pool[0]: must be"),
        ({**SUBSET, "pool": [[1, MAX_INT + 1]]}, "pool[0]: must"),
        ({**SUBSET, "pool": [[1]]}, "pool[0]: must be"),
        ({**SUBSET, "pool": [[True, 1]]}, "pool[0]: must be"),
        ({**SUBSET, "pool": [(1, 2)]}, "pool[0]: must be"),
        ({**SUBSET, "pool": [[1, 2], [1, 2]]}, "must not repeat"),
    ],
)
def test_a_bad_parameter_is_refused_with_its_field(data, message):
    with pytest.raises(ValueError) as info:
        Parameter.from_json(data)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "data",
    [
        {**INT, "min": 0, "max": MAX_INT},
        {**INT, "min": 4, "max": 4},
        {**ENUM, "values": ["P"]},
        {**SUBSET, "pool": [[i, 1] for i in range(MAX_POOL)]},
        {**SUBSET, "pool": [[0, MAX_INT], [MAX_INT, 0]]},
    ],
)
def test_the_edges_of_each_range_are_accepted(data):
    assert Parameter.from_json(data).name == data["name"]


def test_an_integer_parameter():
    k = Parameter.from_json({**INT, "min": 2, "max": 5})
    assert list(k.all_values()) == [2, 3, 4, 5]
    assert [k.offset(v) for v in (2, 5)] == [0, 3]
    assert k.code(5) == 5 and k.size() == 4
    assert (k.text(3), k.label_parts(3), k.to_json(3)) == ("3", ["3"], 3)
    assert k.describe() == "k in 2..5"
    assert [k.parse([t]) for t in ("2", "5")] == [2, 5]
    for text, message in (
        ("6", "k: 6 is out of range 2..5"),
        ("1", "k: 1 is out of range 2..5"),
        ("03", "k: '03' is not a number"),
        ("-3", "k: '-3' is not a number"),
    ):
        with pytest.raises(LabelError, match=message):
            k.parse([text])
    # A parameter with the defaults is the one value 0.
    assert list(Parameter("z", "int").all_values()) == [0]
    assert Parameter("z", "int").size() == 1


def test_an_enum_parameter():
    kind = Parameter.from_json({"name": "kind", "type": "enum", "values": ["P", "N"]})
    assert list(kind.all_values()) == ["P", "N"]
    assert (kind.offset("N"), kind.code("N"), kind.size()) == (1, 1, 2)
    assert (kind.text("N"), kind.label_parts("N"), kind.to_json("N")) == (
        "N",
        ["N"],
        "N",
    )
    assert kind.describe() == "kind in {P, N}"
    assert kind.parse(["N"]) == "N"
    with pytest.raises(LabelError, match="kind: 'Q' is not one of P, N"):
        kind.parse(["Q"])


def test_a_subset_parameter():
    rays = Parameter.from_json(
        {"name": "rays", "type": "subset", "pool": [[1, 0], [0, 1], [1, 1]]}
    )
    a, b, c = (1, 0), (0, 1), (1, 1)
    assert list(rays.all_values()) == [
        (a,),
        (b,),
        (a, b),
        (c,),
        (a, c),
        (b, c),
        (a, b, c),
    ]
    assert [rays.offset(v) for v in rays.all_values()] == list(range(1, 8))
    assert rays.code((b, c)) == 6 and rays.size() == 7
    assert rays.text((a, b)) == "{(1,0),(0,1)}"
    assert rays.label_parts((a, b)) == ["1-0", "0-1"]
    assert rays.to_json((a, b)) == [[1, 0], [0, 1]]
    assert rays.describe() == "rays: a subset of {(1,0), (0,1), (1,1)}"
    assert rays.parse(["1-1", "0-1"]) == (b, c)  # in pool order
    for parts, message in (
        (["2-2"], r"rays: 2-2 is not in the pool \(1-0, 0-1, 1-1\)"),
        (["1-0", "1-0"], "rays: 1-0 appears twice"),
        (["1.0"], "rays: '1.0' is not a pair a-b"),
    ):
        with pytest.raises(LabelError, match=message):
            rays.parse(parts)


def test_shell_indexes_are_dense_and_independent_of_the_ranges():
    assert shell_index([]) == 0
    # Every tuple of two and of three offsets below 4, ordered by the largest
    # offset then lexicographically, takes the next index.
    for k in (1, 2, 3):
        tuples = sorted(
            (tuple((n // 4**i) % 4 for i in reversed(range(k))) for n in range(4**k)),
            key=lambda t: (max(t), t),
        )
        assert [shell_index(list(t)) for t in tuples] == list(range(4**k))


def test_a_parameter_cannot_be_changed_in_place():
    """Parameters belong to families, loaded once and shared by every
    request of a process: a range widened by one caller is not another's."""
    k = Parameter.from_json({**INT, "min": 0, "max": 3})
    with pytest.raises(dataclasses.FrozenInstanceError):
        k.max = 9  # type: ignore[misc]
    assert k.max == 3
