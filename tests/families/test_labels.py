"""Labels name exactly one member, round-trip, and bad ones say why."""

from __future__ import annotations

import pytest

from catalog.errors import BadInput, NotFound
from catalog.families import LabelError, UnknownFamily


def test_every_label_round_trips(families):
    seen = set()
    for family in families.ordered:
        for member in families.members(family.name):
            assert member.label not in seen
            seen.add(member.label)
            again = families.parse_label(member.label)
            assert again == member
            assert again.label.split(".")[0] == family.name


def test_parameters_are_ordered_and_json(families):
    m = families.parse_label("cell.P.4.0")
    assert list(m.parameters.items()) == [("kind", "P"), ("x", 4), ("y", 0)]
    assert m.game.forced_p == ((4, 0),)
    n = families.parse_label("nimhoff.1-0.0-1.1-1")
    assert n.parameters == {"rays": [[1, 0], [0, 1], [1, 1]]}
    assert n.name == "Linear Nimhoff {(1,0),(0,1),(1,1)}"


def test_box_label_gives_the_box(families):
    m = families.parse_label("box.8.13")
    assert m.family == "box" and m.parameters == {"a": 8, "b": 13}
    assert m.definition["alter"] == {"P_boxes": [[0, 0, 8, 13]]}
    assert len(m.game.forced_p) == 8 * 13


def test_subset_labels_are_read_in_any_order_and_written_in_pool_order(families):
    assert families.parse_label("nimhoff.1-1.0-1.1-0").label == "nimhoff.1-0.0-1.1-1"


def test_misere_members_are_the_base_game_with_0_0_forced_n(families):
    for name in ("maharaja-misere", "adjoined-misere", "nimhoff-misere"):
        base = families.family(name).misere_of
        for m in families.members(name):
            plain = families.parse_label(base + m.label[len(name) :])
            assert m.game.forced_n == tuple(sorted({*plain.game.forced_n, (0, 0)}))
            assert m.game.rules() == plain.game.rules()
            assert m.parameters == plain.parameters


BAD = [
    ("boxes.8.13", UnknownFamily, "unknown family 'boxes' (families: maharaja,"),
    ("Box.8.13", UnknownFamily, "unknown family 'Box'"),
    ("box", LabelError, "not a label: 'box' (expected FAMILY.P1.P2…)"),
    ("box.8", LabelError, "box labels have 2 parameters (box.A.B), not 1"),
    ("box.8.13.1", LabelError, "box labels have 2 parameters (box.A.B), not 3"),
    ("box.33.1", LabelError, "a: 33 is out of range 1..32"),
    ("box.0.1", LabelError, "a: 0 is out of range 1..32"),
    ("box.\uff18.13", LabelError, "a: '８' is not a number (ASCII digits"),
    ("box.\u0668.13", LabelError, "a: '٨' is not a number"),
    (
        "box.08.13",
        LabelError,
        "a: '08' is not a number (ASCII digits, no sign or leading zeros)",
    ),
    ("box.-1.13", LabelError, "a: '-1' is not a number"),
    ("box..13", LabelError, "a: '' is not a number"),
    ("maharaja.3.2", LabelError, "maharaja: no member with k=3, l=2: needs k < l"),
    ("maharaja.2.2", LabelError, "needs k < l"),
    ("cell.Q.1.1", LabelError, "kind: 'Q' is not one of P, N"),
    ("cell.P.20.0", LabelError, "needs kind == 'P' and x < 20"),
    ("cell.N.1.1", LabelError, "cell: no member with kind=N, x=1, y=1"),
    ("nimhoff", LabelError, "not a label"),
    ("nimhoff.", LabelError, "rays: '' is not a pair a-b"),
    ("nimhoff.1-0.4-4", LabelError, "rays: 4-4 is not in the pool (1-0, 0-1,"),
    ("nimhoff.1-0.1-0", LabelError, "rays: 1-0 appears twice"),
    ("nimhoff.1-0.0-1.0-2", LabelError, "needs not (has(rays, 0, 1) and has(rays, "),
    ("nimhoff.0-1", LabelError, "needs size(rays) >= 2"),
    ("nimhoff-misere.1-0.0-2", LabelError, "needs has(rays, 1, 0) and has(rays, 0, 1)"),
]


@pytest.mark.parametrize("label, kind, message", BAD, ids=[b[0] for b in BAD])
def test_bad_labels_say_what_is_wrong(families, label, kind, message):
    with pytest.raises(kind) as info:
        families.parse_label(label)
    assert message in str(info.value)


def test_label_errors_map_to_4xx():
    assert issubclass(LabelError, BadInput) and LabelError.status == 400
    assert issubclass(UnknownFamily, NotFound) and UnknownFamily.status == 404


def test_is_label(families):
    assert families.is_label("box.8.13") and families.is_label("box.99.99")
    assert not families.is_label("W000004") and not families.is_label("foo.1")
