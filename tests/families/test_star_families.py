"""The families of issue 41: Beatty games, their ⋆, ⋆ and ⋆⋆ of the seeds.

Every member expands to a game written out (no name left in a ``star``),
its label reads back, the texts are the numbers' (checked against an
independent computation), and the theorems the family pages state hold on
the computed P-positions.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import reference, theorems
from catalog.families import FamilyFileError, families_dir, load_families
from catalog.families.registry import read_seed_definitions, seeds_dir
from catalog.games.definition import canonicalize
from catalog.games.quadratic import parse

NEW = ("beatty", "beatty-star", "beatty-star-misere", "star", "star2")
SEEDS = sorted(read_seed_definitions(seeds_dir()))
SPELLING = re.compile(r"sqrt(\d+)(?:(plus|minus)(\d+))?(?:over(\d+))?")


def _names_left(data):
    """Every string a ``star`` still holds (none once resolved)."""
    if isinstance(data, dict):
        value = data.get("star")
        own = [value] if isinstance(value, str) else []
        return own + [s for v in data.values() for s in _names_left(v)]
    return []


@pytest.mark.parametrize("name", NEW)
def test_every_member_is_written_out_and_reads_back(families, name):
    found = families.members(name)
    assert len(found) >= (16 if "beatty" in name else len(SEEDS))
    for m in found:
        assert _names_left(m.definition) == [], m.label
        assert canonicalize(m.definition).key == m.game.key
        assert canonicalize(m.game.to_json()) == m.game
        again = families.parse_label(m.label)
        assert again.game.key == m.game.key and again.slot == m.slot
        assert m.references and m.description and m.name


def test_the_beatty_codes_name_their_numbers(families):
    param = families.family("beatty").parameters[0]
    assert param.values[:5] == (
        "phi",
        "sqrt2",
        "sqrt3",
        "sqrt3plus1over2",
        "sqrt5plus3over4",
    )
    for m in families.members("beatty"):
        code = m.label.split(".", 1)[1]
        alpha = parse(m.game.to_json()["beatty"])
        assert 1 < alpha < 2
        assert param.meaning(code) == str(alpha)
        assert families.parse_label(f"beatty-star.{code}").game.star == m.game
        # the code spells α: sqrtD[plus|minus]P[overR] is (±P + √D)/R
        spelled = SPELLING.fullmatch(code)
        if spelled is not None:
            d, sign, p, r = spelled.groups()
            p = int(p or 0) * (-1 if sign == "minus" else 1)
            assert parse(f"({p}+sqrt({d}))/{r or 1}") == alpha, code
        else:
            assert code == "phi" and alpha == parse("(1+sqrt(5))/2")


def _cf_of(value: Fraction, terms: int) -> list[int]:
    """Continued fraction of a rational, the slow way."""
    out = []
    for _ in range(terms):
        whole = value.numerator // value.denominator
        out.append(whole)
        value -= whole
        if value == 0:
            break
        value = 1 / value
    return out


def test_descriptions_show_the_continued_fraction_and_beta(families):
    """Against the continued fraction of α rounded to 60 digits, and
    1/α + 1/β = 1 to 50 digits."""
    scale = 10**60
    for m in families.members("beatty"):
        alpha = parse(m.game.to_json()["beatty"])
        close = Fraction(alpha.floor_mul(scale), scale)
        text = m.description.split(" = [", 1)[1].split("]", 1)[0]
        head, _, tail = text.partition("; ")
        shown = [int(head)] + [int(t) for t in tail.split(", ") if t != "…"]
        assert shown == _cf_of(close, len(shown)), m.label
        beta = parse(m.description.split("β = α/(α − 1) = ", 1)[1].split(":")[0])
        sum_ = Fraction(scale, alpha.floor_mul(scale)) + Fraction(
            scale, beta.floor_mul(scale)
        )
        assert abs(sum_ - 1) < Fraction(1, 10**50), m.label
        assert str(alpha) in m.description and str(alpha) in m.name


def test_beatty_star_members_have_the_beatty_pairs(families):
    """Larsson–Hegarty–Fraenkel, Theorem 1, for every α of the family at
    n = 300, against the pairs (⌊kα⌋, ⌊kβ⌋) computed exactly."""
    n = 300
    for m in families.members("beatty-star"):
        alpha = parse(m.game.star.to_json()["beatty"])
        beta = alpha.complement()
        pairs = set()
        for k in range(n):
            a, b = alpha.floor_mul(k), beta.floor_mul(k)
            pairs |= {(a, b), (b, a)}
        expected = sorted((x, y) for x, y in pairs if x < n and y < n)
        assert p_positions(m.game.to_json(), n).tolist() == [
            list(c) for c in expected
        ], m.label
        assert theorems.theorem_for(m.game) is not None, m.label
    assert all(theorems.theorem_for(m.game) is None for m in families.members("beatty"))


def test_nim_star_star_is_nim_and_wythoff_star_star_is_wythoff(families):
    n = 400
    nim = families.parse_label("star2.W000003").game
    assert p_positions(nim.to_json(), n).tolist() == [[x, x] for x in range(n)]
    wythoff = families.parse_label("star2.W000001").game
    expected = p_positions(canonicalize({"rays": [[1, 0], [0, 1], [1, 1]]}), n)
    assert np.array_equal(p_positions(wythoff.to_json(), n), expected)
    # Wythoff's Nim⋆ and the Beatty game of φ have the same moves.
    star = families.parse_label("star.W000001").game
    beatty = families.parse_label("beatty.phi").game
    assert star.key != beatty.key
    assert np.array_equal(
        p_positions(star.to_json(), n), p_positions(beatty.to_json(), n)
    )


@pytest.mark.parametrize("seed", ["W000002", "W000013", "W000022", "W000026"])
def test_star_of_a_seed_is_the_seed_s_game(families, seed):
    """The ID is resolved to the seed file's definition; the fast engine
    agrees with the reference on it and on its ⋆⋆."""
    game = families.parse_label(f"star.{seed}").game
    definition = read_seed_definitions(seeds_dir())[seed]
    assert game.star == canonicalize(definition)
    for label in (f"star.{seed}", f"star2.{seed}"):
        member = families.parse_label(label).game
        assert np.array_equal(
            p_positions(member.to_json(), 24), reference.p_positions(member, 24)
        ), label


def test_the_misere_members_force_the_only_terminal_position(families):
    for m in families.members("beatty-star-misere"):
        assert m.game.forced_n == ((0, 0),)
        assert (
            m.game.rules()
            == families.parse_label(m.label.replace("-misere", "")).game.rules()
        )
    game = families.parse_label("beatty-star-misere.sqrt2").game
    assert np.array_equal(
        p_positions(game.to_json(), 30), reference.p_positions(game, 30)
    )


# -- the spec: enum objects, quadratic numbers, names ---------------------------


def _values(edit):
    def change(d):
        edit(d["parameters"][0]["values"])

    return change


BAD = [
    (
        _values(lambda v: v.__setitem__(1, {"code": "sqrt2", "value": "sqrt(4)"})),
        "beatty.json: parameters[0]: values[1].value: 'sqrt(4)': not irrational",
    ),
    (
        _values(lambda v: v.append({"code": "two", "value": "2/sqrt(2)"})),
        "values[20].value: sqrt(2) is also the value of 'sqrt2'",
    ),
    (
        _values(lambda v: v.append({"code": "two-x", "value": "sqrt(11)/3"})),
        "values[20]: 'two-x' must match",
    ),
    (
        _values(lambda v: v.append({"code": "x", "value": "sqrt(11)/3", "z": 1})),
        "values[20]: must be an object with code, value",
    ),
    (
        _values(lambda v: v.append("plain")),
        "values[20]: must be an object with code, value",
    ),
    (
        lambda d: d["parameters"][0].__setitem__("number", "real"),
        "parameters[0]: number: 'real' must be one of ['quadratic']",
    ),
    (
        lambda d: d["member"].__setitem__("name", "{alpha.root}"),
        "beatty.json: member.name: {alpha.root} names no field",
    ),
    (
        _values(lambda v: v.append({"code": "big", "value": "sqrt(5)"})),
        "beatty.json: definition: beatty.big: beatty: α = sqrt(5)",
    ),
]


@pytest.mark.parametrize(("edit", "message"), BAD, ids=range(len(BAD)))
def test_bad_enum_values_are_refused(edited, edit, message):
    folder = edited("beatty", edit)
    with pytest.raises(FamilyFileError, match=re.escape(message)):
        load_families(folder, seeds_dir()).members("beatty")


def test_word_enums_keep_their_texts(families):
    cell = families.family("cell").parameters[0]
    assert cell.meanings == () and cell.fields() == ()
    assert cell.texts("P") == {"kind": "P"} and cell.meaning("P") == "P"


def test_a_star_may_name_a_label(edited, families):
    folder = edited("star2", lambda d: d.update(definition={"star": "star.W000003"}))
    fs = load_families(folder, seeds_dir())
    nim = families.parse_label("star2.W000003").game
    assert {m.game.key for m in fs.members("star2")} == {nim.key}


@pytest.mark.parametrize(
    ("template", "message"),
    [
        (
            {"star": "star2.W000001"},
            "star2.json: definition: star2.W000001: star: 'star2.W000001' names itself",
        ),
        (
            {"star": "W999999"},
            "star2.json: definition: star2.W000001: star: 'W999999' is neither",
        ),
        (
            {"star": {"star": "nimhoff.9-9"}},
            "star2.json: definition: star2.W000001: star.star: rays: 9-9 is not in "
            "the pool",
        ),
    ],
)
def test_bad_names_fail_the_load(edited, template, message):
    folder = edited("star2", lambda d: d.update(definition=template))
    with pytest.raises(FamilyFileError, match=re.escape(message)):
        load_families(folder, seeds_dir()).members("star2")


def test_a_changed_seed_changes_its_star(tmp_path):
    """The shared expansion is keyed by what the names stand for."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for path in seeds_dir().glob("W*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["id"] == "W000003":
            data["definition"] = {"rays": [[1, 0], [0, 1], [2, 2]]}
        (seeds / path.name).write_text(json.dumps(data), "utf-8")
    fs = load_families(families_dir(), seeds)
    star = fs.parse_label("star.W000003").game.star
    assert star == canonicalize({"rays": [[1, 0], [0, 1], [2, 2]]})
    assert fs.members("star")[2].game.star == star


def test_a_misere_family_needs_nims_steps_in_the_star(edited, tmp_path):
    """Wythoff's Nim⋆ has (1, 2) and (2, 1) but neither (1, 0) nor (0, 1):
    (0, 1) is terminal, so forcing (0, 0) is not its misère version."""
    folder = edited("star", lambda d: None)
    data = json.loads((folder / "beatty-star-misere.json").read_text("utf-8"))
    data.update(name="star-misere", misere_of="star", id_base=399000)
    data["member"] = {"name": "Misère {seed}⋆"}
    (folder / "star-misere.json").write_text(json.dumps(data), "utf-8")
    fs = load_families(folder, seeds_dir())
    message = "star-misere.W000001 has no misère version"
    with pytest.raises(FamilyFileError, match=message):
        fs.members("star-misere")
