"""What a family file may say, field by field, each refusal with the field
in its message; templates rendered at every depth. Written to kill the
mutants of ``catalog/families/spec.py``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from catalog.families import FamilyFileError, load_families
from catalog.families.spec import render_definition, render_text

POOL = [[1, 0], [0, 1], [1, 1]]
GOOD = {
    "name": "fam",
    "title": "A family of the tests",
    "description": "d",
    "paper": "p",
    "id_base": 180000,
    "parameters": [{"name": "k", "type": "int", "min": 1, "max": 2}],
    "constraints": [],
    "definition": {"rays": POOL, "moves": [["$k", 9], [9, "$k"]]},
    "member": {"name": "m {k}"},
    "references": [],
}


def load(tmp_path: Path, **changes):
    folder = tmp_path / "families"
    folder.mkdir(exist_ok=True)
    data = {**GOOD, **changes}
    data = {k: v for k, v in data.items() if v is not ...}
    (folder / f"{data.get('name', 'fam')}.json").write_text(json.dumps(data), "utf-8")
    families = load_families(folder)
    families._members  # noqa: B018  (members are checked lazily)
    return families


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"zz": 1, "colour": 2}, "fam.json: colour: unknown field"),
        ({"name": "Bad"}, "name: 'Bad' must match"),
        ({"title": 5}, "title: must be a non-empty string"),
        ({"description": "  "}, "description: must be a non-empty string"),
        ({"paper": ""}, "paper: must be a non-empty string"),
        ({"id_base": True}, "id_base: must be an integer"),
        ({"id_base": "180000"}, "id_base: must be an integer"),
        ({"parameters": []}, "parameters: must be a non-empty list"),
        ({"parameters": {"k": 1}}, "parameters: must be a non-empty list"),
        (
            {
                "parameters": [
                    {"name": n, "type": "int", "min": 1, "max": 2} for n in "abcd"
                ]
            },
            "parameters: at most 3",
        ),
        ({"member": {"name": "m", "zz": 1, "aa": 2}}, "member.aa: unknown field"),
        ({"member": {"name": 5}}, "member.name: must be a string template"),
        ({"member": {"name": "m", "keywords": "k"}}, "member.keywords: must be a list"),
        ({"member": {"name": "m", "keywords": [5]}}, "member.keywords: must be a list"),
        ({"member": {"name": "m", "description": 5}}, "member.description: must be"),
        ({"member": {"name": "m", "provenance": []}}, "member.provenance: must be"),
        ({"references": "r"}, "references"),
        ({"references": [{"locator": "x"}]}, "references"),
        ({"references": ["c"]}, "references"),
        (
            {"definition": {"rays": POOL, "moves": [["$j", 9]]}},
            "'$j' names no parameter",
        ),
        ({"member": {"name": "m {j}"}}, "{j} names no parameter"),
        (
            {"member": {"name": "m", "keywords": ["k {k}", "j {j}"]}},
            "member.keywords[1]: {j} names no parameter",
        ),
        (
            {"references": [{"citation": "c", "locator": "Table {j}"}]},
            "references[0].locator: {j} names no parameter",
        ),
    ],
)
def test_a_bad_field_is_named(tmp_path, changes, message):
    with pytest.raises(FamilyFileError) as info:
        load(tmp_path, **changes)
    assert message in str(info.value)


def test_a_good_family_loads(tmp_path):
    families = load(tmp_path, references=[{"citation": "c {k}"}])
    (first, second) = families.members("fam")
    assert (first.label, second.label) == ("fam.1", "fam.2")
    assert families.family("fam").parameter("k").max == 2
    with pytest.raises(KeyError):
        families.family("fam").parameter("j")


def test_templates_render_at_every_depth():
    values = {"k": 3, "kind": "N"}
    rendered = render_definition(
        {"rays": POOL, "alter": {"N": [[5, 5]], "$kind": [["$k", 1]]}}, values
    )
    # "$kind" rendered to the literal key beside it: the lists join, in order.
    assert rendered == {"rays": POOL, "alter": {"N": [[5, 5], [3, 1]]}}
    assert render_text("k={k}, {unknown} stays", {"k": "3"}) == "k=3, {unknown} stays"


def test_a_family_cannot_be_changed_in_place(tmp_path):
    """Families are loaded once and shared by every request of a process."""
    family = load(tmp_path).family("fam")
    with pytest.raises(dataclasses.FrozenInstanceError):
        family.name = "other"  # type: ignore[misc]
