"""The keys ``beatty`` and ``star``: validation with one-line errors naming
the field, names resolved (and refused) before the canonical form, and the
canonical form itself (one α, one G, however written)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import catalog
from catalog.errors import CatalogError, NotFound
from catalog.games.definition import DefinitionError, canonicalize, parse_json
from catalog.kinds.star import MAX_STAR_DEPTH, depth, resolve
from tests.kinds import beattyref

NIM = [[1, 0], [0, 1]]
WYTHOFF = [*NIM, [1, 1]]


def refused(data, names=None) -> str:
    with pytest.raises(DefinitionError) as err:
        canonicalize(data, names)
    message = str(err.value)
    assert "\n" not in message and message.strip() == message
    return message


@pytest.mark.parametrize(
    ("alpha", "says"),
    [
        ("sqrt(5)", "beatty: α = sqrt(5) ≈ 2.23607 is not between 1 and 2"),
        ("sqrt(2)-1", "beatty: α = -1+sqrt(2) ≈ 0.414214 is not between 1 and 2"),
        ("2+sqrt(2)", "is not between 1 and 2"),  # β of √2: the other side
        ("-sqrt(2)", "is not between 1 and 2"),
        ("sqrt(4)", "beatty: 'sqrt(4)': not irrational (it equals 2)"),
        ("3/2", "beatty: '3/2': not irrational (it equals 3/2)"),
        ("sqrt(8)/sqrt(2)", "beatty: 'sqrt(8)/sqrt(2)': not irrational"),
        ("sqrt(2)+sqrt(3)", "beatty: 'sqrt(2)+sqrt(3)': two different square roots"),
        ("sqrt(sqrt(2))", "beatty: 'sqrt(sqrt(2))': sqrt of an irrational"),
        ("sqrt(-2)", "beatty: 'sqrt(-2)': sqrt of a negative number"),
        ("sqrt(5/2)", "beatty: 'sqrt(5/2)': sqrt of a non-integer"),
        ("1/(sqrt(2)-sqrt(2))", "division by zero"),
        ("2**0.5", "beatty: '2**0.5': '.' is not allowed"),
        ("2**sqrt(2)", "beatty: '2**sqrt(2)': malformed (Pow is not allowed)"),
        ("abc", "beatty: 'abc': 'a' is not allowed"),
        ("sqrt(2", "beatty: 'sqrt(2': malformed"),
        ("", "beatty: empty expression"),
        ("   ", "beatty: empty expression"),
        ("1" * 101 + "-" + "1" * 101, "beatty: expression longer than 200"),
        ("sqrt(" + "9" * 101 + ")", "more than 100 digits"),
    ],
)
def test_a_bad_alpha_is_refused_in_one_line_naming_the_field(alpha, says):
    assert says in refused({"beatty": alpha})


@pytest.mark.parametrize("value", [1.4142, 2, True, ["sqrt(2)"], {"sqrt": 2}])
def test_alpha_must_be_text(value):
    assert refused({"beatty": value}) == (
        'beatty: must be a quadratic irrational written as text, e.g. "sqrt(2)"'
    )


def test_a_bad_alpha_inside_a_star_is_named_from_the_outside():
    assert refused({"star": {"beatty": "3/2"}}).startswith("star.beatty: '3/2'")
    deep = {"star": {"star": {"beatty": "sqrt(9)"}}}
    assert refused(deep).startswith("star.star.beatty: 'sqrt(9)'")


@pytest.mark.parametrize(
    ("star", "says"),
    [
        (3, "star: must be an entry ID, a label or a definition (an object)"),
        ([[1, 0]], "star: must be an entry ID, a label or a definition"),
        (True, "star: must be an entry ID"),
        ({"rays": [[0, 0]]}, "star.rays[0]: (0, 0) is not a move"),
        ({"rays": [[1, -1]]}, "star.rays[0]: components must be non-negative"),
        ({"rays": NIM, "colour": 1}, "star: unknown field 'colour'"),
        ({"special": ["gcd"]}, "star.special: unknown rule 'gcd'"),
        ({"star": {"rays": [[2, -1]]}}, "star.star.rays[0]: components must be"),
        ({"alter": {"P": [[1, 1]], "N": [[1, 1]]}}, "star.alter"),
    ],
)
def test_a_star_that_is_not_a_game_is_refused_naming_the_path(star, says):
    assert says in refused({"star": star})


def test_star_nests_at_most_the_stated_depth():
    game: dict = {"rays": NIM}
    for _ in range(MAX_STAR_DEPTH):
        game = {"star": game}
    assert depth(game) == MAX_STAR_DEPTH
    assert canonicalize(game).star is not None  # Nim⋆⋆⋆ is fine
    assert refused({"star": game}) == (
        f"star: nested {MAX_STAR_DEPTH + 1} deep, more than {MAX_STAR_DEPTH}"
    )
    # The limit counts the levels names stand for too.
    names = {"a": {"star": "b"}, "b": {"star": "c"}, "c": {"star": {"rays": NIM}}}
    assert canonicalize({"star": "b"}, names.__getitem__).star is not None
    assert "nested 4 deep" in refused({"star": "a"}, names.__getitem__)


def test_a_name_is_refused_where_nothing_resolves_it():
    """Without a names function a definition cannot stand for an entry:
    canonicalize says so."""
    for name in ("W000001", "maharaja.1.2"):
        with pytest.raises(DefinitionError, match="give the definition itself"):
            parse_json(json.dumps({"star": {"star": name}}))


def test_the_pure_api_reads_seeds_and_family_members_from_the_shipped_files():
    """catalog.p_positions has no database: a seed's ID and a family
    member's label are read from the shipped files, anything else is an
    error naming star."""
    wythoff_star = catalog.p_positions({"star": {"rays": [[1, 0], [0, 1], [1, 1]]}}, 40)
    assert np.array_equal(catalog.p_positions({"star": "W000001"}, 40), wythoff_star)
    maharaja = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
    assert np.array_equal(
        catalog.p_positions({"star": {"star": "maharaja.1.2"}}, 30),
        catalog.p_positions({"star": {"star": maharaja}}, 30),
    )
    with pytest.raises(DefinitionError, match="^star: 'W009999' is neither a seed"):
        catalog.p_positions({"star": "W009999"}, 10)
    with pytest.raises(DefinitionError, match="^star: "):
        catalog.p_positions({"star": "nope.1"}, 10)


def test_a_chain_of_names_that_comes_back_is_refused():
    """Stored definitions hold G written out, so no stored entry can name
    itself; the resolver refuses a names function whose chain does."""
    loop = {"a": {"star": "b"}, "b": {"star": "a"}}
    message = refused({"star": "a"}, loop.__getitem__)
    assert message == "star.star.star: names itself (a → b → a)"
    assert "names itself (a → a)" in refused(
        {"star": "a"}, {"a": {"star": "a"}}.__getitem__
    )
    # A name used twice on different branches is no loop: only one branch.
    assert resolve({"star": "b"}, {"b": {"rays": NIM}}.__getitem__) == {
        "star": {"rays": NIM}
    }


def test_an_unknown_name_is_refused_with_the_lookups_message():
    def names(text: str):
        raise NotFound(f"no entry {text}")

    assert refused({"star": "W999999"}, names) == "star: no entry W999999"
    assert refused({"star": {"star": "W999999"}}, names) == (
        "star.star: no entry W999999"
    )
    assert issubclass(DefinitionError, CatalogError)


@pytest.mark.parametrize(
    "spellings",
    [
        ["sqrt(2)", "2/sqrt(2)", "sqrt(8)/2", " sqrt(2) ", "(sqrt(2))", "sqrt(18)/3"],
        ["(1+sqrt(5))/2", "1/(sqrt(5)-1)*2", "(sqrt(5)+1)/2", "2/(sqrt(5)-1)"],
        ["2-sqrt(2)/2", "(4-sqrt(2))/2", "2-1/sqrt(2)", "-sqrt(2)/2+2"],
        ["(1+sqrt(3))/2", "1/(sqrt(3)-1)"],
    ],
)
def test_one_alpha_written_many_ways_is_one_game(spellings):
    games = [canonicalize({"beatty": s}) for s in spellings]
    assert len({g.key for g in games}) == 1
    assert len({canonicalize({"star": {"beatty": s}}).key for s in spellings}) == 1
    text = games[0].to_json()["beatty"]
    assert canonicalize({"beatty": text}).key == games[0].key  # read back


def test_the_canonical_text_is_the_table_of_the_tests():
    """Every α of :mod:`tests.kinds.beattyref` in its normal form."""
    beattyref.check_table()
    for text in beattyref.ALPHAS:
        game = canonicalize({"beatty": text})
        assert canonicalize({"beatty": str(game.beatty)}) == game
    assert str(canonicalize({"beatty": "sqrt(5)-1"}).beatty) == "-1+sqrt(5)"
    distinct = {canonicalize({"beatty": t}).key for t in beattyref.ALPHAS}
    assert len(distinct) == len(beattyref.ALPHAS)


def test_star_of_two_spellings_of_one_game_is_one_game():
    one = {"star": {"rays": [[1, 1], *NIM, [2, 2]], "moves": [[3, 3], [1, 2]]}}
    other = {"star": {"moves": [[1, 2], [1, 2]], "rays": [[0, 1], [1, 1], [1, 0]]}}
    assert canonicalize(one).key == canonicalize(other).key
    assert canonicalize(one).star.rays == ((0, 1), (1, 0), (1, 1))
    boxes = {"star": {"rays": WYTHOFF, "alter": {"P_boxes": [[0, 0, 2, 1]]}}}
    cells = {"star": {"rays": WYTHOFF, "alter": {"P": [[1, 0], [0, 0]]}}}
    assert canonicalize(boxes).key == canonicalize(cells).key
    # A star of a different game, or the game itself, is another game.
    assert canonicalize(one).key != canonicalize({"star": {"rays": NIM}}).key
    assert canonicalize(one).key != canonicalize(one["star"]).key


def test_a_name_and_the_definition_it_stands_for_are_one_game():
    names = {"W000004": {"rays": WYTHOFF, "moves": [[1, 2], [2, 1]]}}.__getitem__
    by_name = canonicalize({"star": "W000004"}, names)
    written = canonicalize({"star": {"moves": [[2, 1], [1, 2]], "rays": WYTHOFF}})
    assert by_name == written and by_name.key == written.key
    assert by_name.to_json()["star"]["moves"] == [[1, 2], [2, 1]]  # written out


def test_missing_or_null_keys_change_nothing():
    plain = canonicalize({"rays": WYTHOFF})
    assert canonicalize({"rays": WYTHOFF, "beatty": None, "star": None}) == plain
    assert "beatty" not in plain.to_json() and "star" not in plain.to_json()


def test_beatty_and_star_combine_with_the_box_kinds_only():
    alpha = {"beatty": "sqrt(2)"}
    for other in ({"block": 1}, {"special": ["ho-restriction"]}):
        assert "cannot be combined yet" in refused({**alpha, **other})
        assert "cannot be combined yet" in refused({"star": {"rays": NIM}, **other})
    for fine in (
        {"rays": NIM, "moves": [[1, 3]]},
        {"cones": [{"lo": [1, 2], "hi": [1, 4]}]},
        {"alter": {"N": [[0, 0]]}},
        {"star": {"beatty": "sqrt(3)"}},
    ):
        assert canonicalize({**alpha, **fine}).beatty is not None
