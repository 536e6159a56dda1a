"""Family files load, and bad ones fail naming the file and the field."""

from __future__ import annotations

import json

import pytest

from catalog.errors import BadInput
from catalog.families import FamilyFileError, families_dir, load_families
from catalog.families.registry import SEED_LABELS, _load, read_seed_ids, seeds_dir
from catalog.families.spec import build_family, read_family_file
from catalog.games.definition import canonicalize

FILES = sorted(families_dir().glob("*.json"))


def test_the_issue_s_families_are_shipped():
    names = {p.stem for p in FILES}
    assert {"maharaja", "box", "cell", "adjoined", "nimhoff"} <= names
    for base in ("maharaja", "adjoined", "nimhoff"):
        assert f"{base}-misere" in names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_file_loads(path, families):
    data = read_family_file(path)
    family = families.family(path.stem)
    assert family.name == data["name"] == path.stem
    assert family.title and family.description and family.paper
    assert family.references, "every family cites its paper"
    assert families.members(family.name), "every family has members"
    if "misere_of" not in data:
        assert build_family(data) == family


def test_errors_are_bad_input():
    assert issubclass(FamilyFileError, BadInput)
    assert issubclass(FamilyFileError, ValueError)


def _drop(key):
    return lambda d: d.pop(key)


def _set(path, value):
    def edit(d):
        target = d
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return edit


BAD = [
    ("box", _drop("id_base"), "box.json: id_base: missing field"),
    ("box", _set(["colour"], 1), "box.json: colour: unknown field"),
    ("box", _set(["name"], "boxes"), "box.json: name: 'boxes' must equal the file"),
    ("box", _set(["parameters", 0, "type"], "real"), "box.json: parameters[0]: type"),
    ("box", _set(["parameters", 1, "min"], 40), "box.json: parameters[1]: max:"),
    ("box", _set(["parameters", 0, "max"], "16"), "parameters[0]: max: must be an"),
    ("box", _set(["parameters", 1, "name"], "a"), "box.json: parameters: names"),
    (
        "box",
        _set(["definition", "alter", "P_boxes"], [[0, 0, "$c", "$b"]]),
        "box.json: definition.alter.P_boxes[0][2]: '$c' names no parameter",
    ),
    (
        "box",
        _set(["member", "name"], "Box({a},{c})"),
        "box.json: member.name: {c} names no parameter",
    ),
    (
        "box",
        _set(["definition", "alter", "P_boxes"], [[0, 0, "$a", -1]]),
        "box.json: definition: box.1.1: alter.P_boxes[0]: components must be non-neg",
    ),
    ("maharaja", _set(["constraints"], ["k <"]), "maharaja.json: constraints[0]: "),
    (
        "maharaja",
        _set(["constraints"], ["k < m"]),
        "maharaja.json: constraints[0]: unknown name 'm'",
    ),
    (
        "maharaja",
        _set(["constraints"], ["__import__('os') == 1"]),
        "maharaja.json: constraints[0]: only the functions",
    ),
    (
        "maharaja",
        _set(["constraints"], ["k.real < l"]),
        "maharaja.json: constraints[0]: Attribute is not allowed",
    ),
    (
        "maharaja",
        _set(["constraints"], ["k < 'l'"]),
        """maharaja.json: constraints: "k < 'l'" fails on {'k': 1, 'l': 1}""",
    ),
    ("maharaja", _set(["id_base"], 100), "maharaja.json: id_base: must be in"),
    ("maharaja", _set(["id_base"], 120000), "id_base: 120000 is also the id_base"),
    (
        "maharaja",
        _set(["parameters", 1, "max"], 101),
        "maharaja.json: id_base: maharaja.1.101 needs slot 110000, past the block's "
        "end 109999",
    ),
    (
        "nimhoff-misere",
        _set(["constraints"], []),
        "nimhoff-misere.json: constraints: nimhoff-misere.0-1.1-1 has no misère "
        "version ((0, 0) is not its only terminal position",
    ),
    (
        "maharaja-misere",
        _set(["misere_of"], "wythoff"),
        "maharaja-misere.json: misere_of: 'wythoff' is not another family",
    ),
    (
        "maharaja-misere",
        _set(["parameters"], []),
        "maharaja-misere.json: parameters: a misère family takes it from misere_of",
    ),
    (
        "cell",
        _set(["parameters", 0, "values"], ["P", "P"]),
        "cell.json: parameters[0]: values: must not repeat",
    ),
    (
        "nimhoff",
        _set(["parameters", 0, "pool"], [[1, 0], [0, 0]]),
        "nimhoff.json: parameters[0]: pool[1]: must be a pair",
    ),
    (
        "nimhoff",
        _set(
            ["parameters"],
            [
                {"name": "rays", "type": "subset", "pool": [[1, 0]]},
                {"name": "k", "type": "int", "min": 1, "max": 2},
            ],
        ),
        "nimhoff.json: parameters: a subset parameter must come last",
    ),
]


@pytest.mark.parametrize("name, edit, message", BAD, ids=[c[2][:40] for c in BAD])
def test_bad_family_files_name_file_and_field(edited, name, edit, message):
    folder = edited(name, edit)
    with pytest.raises(FamilyFileError) as info:
        load_families(folder)._members  # noqa: B018  (members are checked lazily)
    assert message in str(info.value)


def test_a_misere_box_is_refused(edited, tmp_path):
    """Box(a,b) forces (0, 0) to P, so it has no misère version."""
    folder = edited("box", lambda d: None)
    (folder / "box-misere.json").write_text(
        '{"name": "box-misere", "misere_of": "box", "title": "t", "description":'
        ' "d", "paper": "p", "id_base": 125000, "member": {"name": "m"}}',
        "utf-8",
    )
    with pytest.raises(
        FamilyFileError,
        match=r"box-misere.json: constraints: "
        r"box-misere.1.1 has no misère version \(the base game already forces",
    ):
        load_families(folder)._members  # noqa: B018


def test_not_json_names_the_file(edited):
    folder = edited("box", lambda d: None)
    (folder / "box.json").write_text("{", "utf-8")
    with pytest.raises(FamilyFileError, match=r"^box.json: Expecting"):
        load_families(folder)


def test_the_shipped_families_load_once_and_a_folder_anew(edited):
    """The shipped families are package data: one set per process. A folder
    is read each time, so an edit shows at once."""
    assert load_families() is load_families()
    shipped = load_families().family("box").parameters[0]
    folder = edited("box", lambda d: d["parameters"][0].update(max=3))
    first = load_families(folder)
    assert first.family("box").parameters[0].max == 3 < shipped.max
    edited("box", lambda d: d["parameters"][0].update(max=2))
    assert load_families(folder).family("box").parameters[0].max == 2
    assert first.family("box").parameters[0].max == 3


def test_the_last_block_ends_at_the_largest_w_number(edited, families):
    """Blocks run from one id_base to the next; the last to W999999."""
    first, second, *_, last = families.ordered
    assert families.block_end(first) == second.id_base
    assert families.block_end(last) == 1_000_000
    folder = edited("box", _set(["id_base"], 1_000_000))
    with pytest.raises(FamilyFileError, match=r"id_base: must be in 100000\.\.999999$"):
        load_families(folder)
    folder = edited("box", _set(["id_base"], 999_999))  # in range: too late
    with pytest.raises(FamilyFileError, match=r"past the block's end 999999$"):
        load_families(folder)._members  # noqa: B018


@pytest.mark.parametrize(
    "text",
    [
        "{",  # ValueError
        '{"id": "W000001"}',  # KeyError
        '{"id": 1, "definition": {"rays": [[1, 1]]}}',  # TypeError
        '{"id": "W000001", "definition": {"rays": [[0, 0]]}}',  # DefinitionError
        None,  # a folder: OSError
    ],
)
def test_a_bad_seed_names_its_file(tmp_path, text):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    if text is None:
        (seeds / "W000001.json").mkdir()
    else:
        (seeds / "W000001.json").write_text(text, "utf-8")
    with pytest.raises(FamilyFileError, match=r"^W000001.json: "):
        load_families(families_dir(), seeds)


def test_a_seed_s_number_is_every_digit_of_its_id(tmp_path):
    """``W123456`` is seed number 123456: all six digits, whatever they are
    (the shipped seeds' IDs begin with zeros, which hide a digit dropped)."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for wid, rays in (("W123456", [[1, 1]]), ("W000007", [[1, 0]])):
        text = json.dumps({"id": wid, "definition": {"rays": rays}})
        (seeds / f"{wid}.json").write_text(text, "utf-8")
    assert read_seed_ids(seeds) == {
        canonicalize({"rays": [[1, 1]]}).key: 123456,
        canonicalize({"rays": [[1, 0]]}).key: 7,
    }


def _as_json(data):
    return json.loads(json.dumps(data))


def test_the_seeds_kept_labels_are_current(families):
    """seeds/labels.json holds what the shipped families and seeds give
    (after changing either: ``python tools/seed_labels.py``)."""
    kept = json.loads((seeds_dir() / SEED_LABELS).read_text("utf-8"))
    assert kept["fingerprint"] == families.fingerprint, "run tools/seed_labels.py"
    assert kept["labels"] == _as_json(families.computed_seed_labels())
    assert "maharaja.1.2" in {
        row["label"] for rows in kept["labels"].values() for row in rows
    }
    assert kept["shared"] == families.computed_shared()
    assert ["maharaja.1.2", "adjoined.1.2"] in kept["shared"].values()
    assert kept["members"] == families.computed_primary_labels()
    assert len(kept["members"]) == len(families.labels)  # no two keys' prefixes meet


@pytest.mark.parametrize("name", [f.name for f in load_families().ordered])
def test_a_family_is_seeded_from_its_own_members_and_the_kept_file(name):
    """What seeding one family reads of the others (each member's W-number,
    every member of its game, their label rows) comes from the kept file:
    only that family is expanded, and the answers are those of all the
    families' members."""
    fresh = _load(families_dir(), seeds_dir())  # not the process's shared set
    answers = [
        (fresh.number(m), fresh.game_members(m), fresh.game_label_rows(m))
        for m in fresh.members(name)
    ]
    assert list(fresh._expanded) == [name] and "by_key" not in fresh.__dict__
    full = load_families()
    assert answers == [
        (full.numbers[m.game.key], full.by_key[m.game.key], full.label_rows(m.game.key))
        for m in full.members(name)
    ]


def test_the_seeds_labels_are_read_without_expanding_a_family():
    fresh = _load(families_dir(), seeds_dir())  # not the process's shared set
    found = fresh.seed_labels()
    assert "by_key" not in fresh.__dict__ and fresh._expanded == {}
    assert found == _as_json(load_families().computed_seed_labels())


def test_a_game_s_labels_are_found_without_expanding_a_family(families):
    """``wythoff add`` labels a new game from the kept file: one member
    expanded (and those sharing its game), no family's list of members."""
    keys = [families.members(f.name)[-1].game.key for f in families.ordered]
    shared = families.parse_label("adjoined.1.2").game.key  # maharaja.1.2's too
    stranger = families.parse_label("box.2.2").game.key.replace("a", "b")
    fresh = _load(families_dir(), seeds_dir())  # not the process's shared set
    found = [fresh.label_rows(key) for key in [*keys, shared, stranger]]
    assert fresh._expanded == {} and "by_key" not in fresh.__dict__
    assert found == [families.label_rows(k) for k in [*keys, shared, stranger]]
    assert [row["label"] for row in found[-2]] == ["maharaja.1.2", "adjoined.1.2"]
    assert found[-1] == []
    assert all(found[:-1])


def test_kept_labels_of_other_families_or_seeds_are_not_used(edited):
    """Families that no longer hold maharaja.1.2 (W000004's game) label it
    no more, though the kept file does."""
    folder = edited("maharaja", lambda data: data["parameters"][0].update(min=2))
    changed = load_families(folder)
    labels = {row["label"] for rows in changed.seed_labels().values() for row in rows}
    assert "maharaja.1.2" not in labels and "maharaja-misere.1.2" not in labels
    assert changed.seed_labels() == changed.computed_seed_labels()
    assert changed.primary_labels == changed.computed_primary_labels()
    shared = {label for found in changed.shared.values() for label in found}
    assert "maharaja.2.3" in shared and "maharaja.1.2" not in shared
    adjoined = changed.parse_label("adjoined.1.4")  # maharaja.1.4's game before
    assert changed.game_members(adjoined) == [adjoined]
    assert (
        changed.number(adjoined) == adjoined.slot == changed.numbers[adjoined.game.key]
    )
    assert (
        load_families().number(adjoined)
        == load_families().parse_label("maharaja.1.4").slot
    )


@pytest.mark.parametrize(
    "kept",
    [
        None,
        "not json",
        "[]",
        '{"labels": []}',
        '{"fingerprint": "%s", "labels": [], "shared": []}',
    ],
)
def test_seeds_without_usable_kept_labels_have_them_computed(tmp_path, kept):
    """No labels file, or one that is not JSON or not of this shape (even
    with the right fingerprint): the labels are computed, as they are for
    seeds the file was not written for."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for path in seeds_dir().glob("W*.json"):
        (seeds / path.name).write_bytes(path.read_bytes())
    if kept is not None:
        text = kept.replace("%s", load_families().fingerprint)
        (seeds / SEED_LABELS).write_text(text, "utf-8")
    found = load_families(families_dir(), seeds)
    assert found.fingerprint == load_families().fingerprint
    assert found.seed_labels() == found.computed_seed_labels()
    assert found.shared == found.computed_shared()
    assert ["maharaja.1.2", "adjoined.1.2"] in found.shared.values()
    assert "maharaja.1.2" in {
        row["label"] for rows in found.seed_labels().values() for row in rows
    }
