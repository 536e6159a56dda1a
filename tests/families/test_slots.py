"""Members, W-numbers and their permanence."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from catalog.compute.closed import lower
from catalog.compute.modes import BOX_ENGINES, column_mode, engine
from catalog.families import FIRST_FAMILY_ID, FamilySet, load_families, shell_index
from catalog.families.registry import read_seed_ids, seeds_dir
from catalog.games.definition import canonicalize

WYTHOFF = [[1, 0], [0, 1], [1, 1]]


def wythoff_p_positions_below(n):
    """Wythoff's P-positions with both coordinates below n, from a_k, b_k."""
    out = set()
    for k in range(n):
        a = lower(k)
        if a + k < n:
            out |= {(a, a + k), (a + k, a)}
    return out


def labels(families, name):
    return [m.label for m in families.members(name)]


def test_member_counts_follow_the_issue_s_ranges(families):
    r16, r32, r90 = range(1, 17), range(1, 33), range(1, 91)
    pairs16 = [(k, m) for k in r16 for m in r16 if k < m]
    expected = {
        "maharaja": {f"maharaja.{k}.{m}" for k, m in pairs16},
        "box": {f"box.{a}.{b}" for a in r32 for b in r32},
        "adjoined": {f"adjoined.{i}.{j}" for i in r90 for j in r90 if i < j},
        "cell": {f"cell.P.{x}.{y}" for x in range(20) for y in range(20)}
        | {f"cell.N.{x}.{y}" for x, y in wythoff_p_positions_below(30)},
    }
    for name, wanted in expected.items():
        assert set(labels(families, name)) == wanted
    assert len(labels(families, "cell")) == 400 + 23
    for base in ("maharaja", "adjoined"):
        assert labels(families, f"{base}-misere") == [
            f"{base}-misere" + label[len(base) :] for label in labels(families, base)
        ]


def test_nimhoff_holds_the_seeds_and_the_oeis_rule_sets(families):
    keys = {m.game.key for m in families.members("nimhoff")}
    seeds = [json.loads(p.read_text("utf-8")) for p in seeds_dir().glob("W*.json")]
    rays_only = [
        s["definition"]
        for s in seeds
        if not s["definition"].get("moves")
        and not s["definition"].get("special")
        and not any(s["definition"].get("alter", {}).values())
    ]
    assert len(rays_only) == 4  # W000001, W000003, W000012, W000014
    # NimHof arrays checked offline (docs/families/nimhoff.md): A307296,
    # A307298, A307299, A307301.
    oeis = [
        [[1, 0], [3, 2], [1, 1], [0, 1]],
        [[1, 0], [1, 1], [2, 3], [1, 2], [0, 1]],
        [[1, 0], [1, 1], [1, 2], [0, 1]],
        [[1, 0], [3, 1], [0, 1]],
    ]
    for definition in [*rays_only, *({"rays": r} for r in oeis)]:
        assert canonicalize(definition).key in keys, definition


def test_every_member_is_a_column_game_of_distinct_rules(families):
    """Column games, resumable column by column, except the families of the
    literature's rule kinds: their engines compute boxes (cones with Nim's
    rays up to 10^8, the dense engine's kinds up to its limit, Beatty moves
    and ⋆ the subtraction engine's)."""
    literature = {"cones", "block", "beatty", "star"}
    for family in families.ordered:
        found = families.members(family.name)
        new_kinds = {m.game.beyond("rays", "moves", "alter") for m in found}
        if any(kinds & literature for kinds in new_kinds):
            # (a-Wythoff with a = 1 is Wythoff's Nim, a column game)
            assert all(
                engine(m.game) in BOX_ENGINES or column_mode(m.game) for m in found
            ), family.name
        else:
            assert all(column_mode(m.game) for m in found), family.name
        assert len({m.game.key for m in found}) == len(found), family.name


def test_slots_lie_in_the_family_block(families):
    for family in families.ordered:
        end = families.block_end(family)
        slots = [m.slot for m in families.members(family.name)]
        assert slots == sorted(set(slots))
        assert all(family.id_base <= s < end for s in slots)
    assert min(f.id_base for f in families.ordered) == FIRST_FAMILY_ID


def test_w_numbers_are_unique_except_for_equal_games(families):
    by_number = {}
    for key, number in families.numbers.items():
        assert by_number.setdefault(number, key) == key
    assert all(0 < n < 1_000_000 for n in families.numbers.values())


def test_equal_games_share_the_slot_of_the_lowest_family(families):
    shared = {key: found for key, found in families.labels.items() if len(found) > 1}
    assert shared, "maharaja and adjoined overlap"
    for key, found in shared.items():
        members = [families.parse_label(label) for label in found]
        assert len({m.game.key for m in members}) == 1
        first = min(members, key=lambda m: families.family(m.family).id_base)
        assert found[0] == first.label, "the primary label comes first"
        if key not in families.seed_ids:
            assert families.numbers[key] == first.slot
    a, b = families.parse_label("maharaja.5.9"), families.parse_label("adjoined.5.9")
    assert families.number(a) == families.number(b) == a.slot != b.slot
    box, cell = families.parse_label("box.1.1"), families.parse_label("cell.P.0.0")
    assert families.number(cell) == box.slot


def test_seeds_keep_their_ids(families):
    seed_ids = read_seed_ids(seeds_dir())
    covered = {key: n for key, n in seed_ids.items() if key in families.labels}
    for key, number in covered.items():
        assert families.numbers[key] == number
    number = families.number
    assert number(families.parse_label("maharaja.1.2")) == 4
    maharaja = {
        number(families.parse_label(f"maharaja.{k}.{m}"))
        for k, m in [(1, 2), (2, 3), (3, 5), (4, 6), (4, 7), (5, 8), (6, 10), (7, 11)]
    }
    assert maharaja == set(range(4, 12))
    assert number(families.parse_label("cell.N.0.0")) == 2
    assert number(families.parse_label("box.8.13")) == 17
    assert number(families.parse_label("adjoined.1.3")) == 24
    assert number(families.parse_label("nimhoff-misere.1-0.0-1")) == 25


def test_numbers_do_not_depend_on_the_order_families_are_given(families):
    shuffled = list(families.ordered)
    random.Random(7).shuffle(shuffled)
    other = FamilySet(shuffled, dict(reversed(families.seed_ids.items())))
    assert other.numbers == families.numbers
    assert other.labels == families.labels


def test_shell_index_is_the_position_in_max_then_lexicographic_order():
    for k in (1, 2, 3):
        tuples = sorted(
            itertools.product(range(6), repeat=k), key=lambda t: (max(t), t)
        )
        assert [shell_index(list(t)) for t in tuples] == list(range(len(tuples)))


@pytest.mark.parametrize(
    "name, widen",
    [
        ("maharaja", lambda d: d["parameters"][1].update(max=40)),
        ("box", lambda d: [p.update(max=48) for p in d["parameters"]]),
        ("cell", lambda d: d["parameters"][1].update(max=40)),
        ("nimhoff", lambda d: d["parameters"][0]["pool"].extend([[1, 4], [4, 1]])),
    ],
)
def test_widening_a_range_keeps_every_existing_slot(families, edited, name, widen):
    wider = load_families(edited(name, widen))
    before = {m.label: m.slot for m in families.members(name)}
    after = {m.label: m.slot for m in wider.members(name)}
    assert len(after) > len(before)
    assert {label: after[label] for label in before} == before


def test_every_published_member_keeps_its_w_number(families):
    """The W-number of every member the catalog has published (the 3073
    labels of the ranges before they were widened, issue 24) is permanent:
    widening a range or adding a family must not move one."""
    path = Path(__file__).parent / "data" / "published_numbers.json"
    published = json.loads(path.read_text("utf-8"))
    now = {
        m.label: families.number(m)
        for family in families.ordered
        for m in families.members(family.name)
    }
    assert len(published) == 3073
    assert {label: now.get(label) for label in published} == published
