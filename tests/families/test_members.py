"""Members of families written for the test (shapes the shipped files do
not have): a parameter list that ends in a subset after an integer, a
single parameter, templates without description or provenance, references
with placeholders, a misère version of a game that forces (0, 0) N."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path

import pytest

from catalog.families import FamilyFileError, LabelError, load_families
from catalog.families.members import member, parse_values

#: The module (``catalog.families.members`` is also the function's name).
members_module = importlib.import_module("catalog.families.members")

POOL = [[1, 0], [0, 1], [1, 1]]


def family_file(folder: Path, **fields) -> None:
    data = {
        "title": "A family of the tests",
        "description": "The family's own description.",
        "paper": "none",
        "constraints": [],
        "member": {"name": "m"},
        "references": [],
        **fields,
    }
    (folder / f"{data['name']}.json").write_text(json.dumps(data), "utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "families"
    folder.mkdir()
    family_file(
        folder,
        name="mix",
        id_base=180000,
        parameters=[
            {"name": "k", "type": "int", "min": 2, "max": 4},
            {"name": "rays", "type": "subset", "pool": POOL},
        ],
        constraints=["has(rays, 1, 0) and has(rays, 0, 1)"],
        definition={"rays": "$rays", "moves": [["$k", 7], [7, "$k"]]},
        member={"name": "mix {k} {rays}"},
    )
    family_file(
        folder,
        name="one",
        id_base=181000,
        parameters=[{"name": "k", "type": "int", "min": 1, "max": 3}],
        definition={"rays": POOL, "moves": [["$k", 9], [9, "$k"]]},
        member={"name": "one {k}", "keywords": ["k{k}"]},
        references=[
            {"citation": "C {k}", "locator": ["page {k}", {"line": "{k}"}], "doi": None}
        ],
    )
    return folder


def test_an_integer_then_a_subset(folder):
    mix = load_families(folder).family("mix")
    assert parse_values(mix, ["3", "1-0", "0-1"]) == (3, ((1, 0), (0, 1)))
    found = member(mix, ["2", "0-1", "1-0", "1-1"])
    assert found.label == "mix.2.1-0.0-1.1-1"
    assert found.definition["moves"] == [[2, 7], [7, 2]]
    assert found.name == "mix 2 {(1,0),(0,1),(1,1)}"
    with pytest.raises(LabelError) as info:
        parse_values(mix, ["3"])
    assert str(info.value) == (
        "mix labels have at least 2 parameters (mix.K.A-B…), not 1"
    )
    with pytest.raises(LabelError, match=r"mix: no member with k=3, rays=\{\(1,1\)\}"):
        parse_values(mix, ["3", "1-1"])


def test_one_parameter(folder):
    one = load_families(folder).family("one")
    with pytest.raises(LabelError) as info:
        parse_values(one, ["1", "2"])
    assert str(info.value) == "one labels have 1 parameter (one.K), not 2"
    found = member(one, ["2"])
    # No description or provenance in the template: the family's own, and
    # a sentence naming the member.
    assert found.description == "The family's own description."
    assert found.provenance == "Member one.2 of the family one (A family of the tests)."
    assert found.keywords == ["k2"]
    # Placeholders in references are filled at every depth; other values kept.
    assert found.references == [
        {"citation": "C 2", "locator": ["page 2", {"line": "2"}], "doi": None}
    ]


def test_a_misere_version_of_a_game_that_forces_the_end_n(folder):
    family_file(
        folder,
        name="ended",
        id_base=182000,
        parameters=[{"name": "k", "type": "int", "min": 1, "max": 2}],
        definition={"rays": POOL, "moves": [["$k", 9]], "alter": {"N": [[0, 0]]}},
    )
    family_file(folder, name="ended-misere", misere_of="ended", id_base=183000)
    with pytest.raises(FamilyFileError, match=r"already forces \(0, 0\)"):
        load_families(folder).members("ended-misere")


def test_a_member_cannot_be_changed_in_place():
    """Members are expanded once a process and shared by every caller (the
    registry's cache): one caller's edit would change everyone's."""
    shipped = load_families()
    first = shipped.members("box")[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.label = "box.99.99"  # type: ignore[misc]
    assert shipped.members("box")[0].label == "box.1.1"


def test_families_built_from_the_same_data_share_their_members(folder):
    """A family set loaded again from the same files expands nothing again;
    a family whose file changed, and the misère version of it, expand anew."""
    family_file(folder, name="one-misere", misere_of="one", id_base=184000)
    first, again = load_families(folder), load_families(folder)
    for name in ("mix", "one", "one-misere"):
        assert [id(m) for m in again.members(name)] == [
            id(m) for m in first.members(name)
        ]
    family_file(
        folder,
        name="one",
        id_base=181000,
        parameters=[{"name": "k", "type": "int", "min": 1, "max": 4}],
        definition={"rays": POOL, "moves": [["$k", 9], [9, "$k"]]},
        member={"name": "one {k}"},
    )
    changed = load_families(folder)
    assert [m.label for m in changed.members("one")] == [
        "one.1",
        "one.2",
        "one.3",
        "one.4",
    ]
    assert len(changed.members("one-misere")) == 4
    assert changed.members("mix")[0] is first.members("mix")[0]
    # The shared list is the callers' own copy.
    changed.members("mix").clear()
    assert len(load_families(folder).members("mix")) == len(first.members("mix"))


def test_a_process_keeps_the_expansions_of_the_last_families_only(folder, monkeypatch):
    """At most MAX_EXPANDED families' members are kept, the oldest dropped
    first: a process loading ever new family files does not grow."""
    monkeypatch.setattr(members_module, "MAX_EXPANDED", 2)
    monkeypatch.setattr(members_module, "_expanded", {})

    def one(top: int) -> list:
        family_file(
            folder,
            name="one",
            id_base=181000,
            parameters=[{"name": "k", "type": "int", "min": 1, "max": top}],
            definition={"rays": POOL, "moves": [["$k", 9], [9, "$k"]]},
        )
        return load_families(folder).members("one")

    first = {top: one(top) for top in (3, 4, 5)}
    assert len(members_module._expanded) == 2
    assert one(5)[0] is first[5][0] and one(4)[0] is first[4][0]
    assert one(3)[0] is not first[3][0]  # dropped, expanded again
