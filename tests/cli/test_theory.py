"""The theory layer through ``wythoff``: adjoinable moves, the invariants of
``show`` and far-out ``is-p`` on altered games, on both databases."""

import json

import pytest

from catalog import p_positions
from catalog.cli.main import cli
from catalog.compute.altered import saturation
from catalog.compute.farout import FarOut
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir
from tests.papers import HST, MAHARAJA_27_35, legal


def command(runner, url):
    """Run ``wythoff … --json --db URL``; return (exit code, parsed stdout, stderr)."""

    def run(*args, as_json=True):
        name, *rest = args
        flags = ["--json"] if as_json else []
        result = runner.invoke(cli, [name, *flags, "--db", url, *rest])
        out = result.stdout
        if as_json and result.exit_code == 0:
            out = json.loads(out)
        return result.exit_code, out, result.stderr

    return run


@pytest.fixture
def wythoff(runner, shared_url):
    """``wythoff`` on the module's catalog, for tests that only read it
    (``show`` stores the invariants it computes: the next reads them)."""
    return command(runner, shared_url)


@pytest.fixture
def seeded(runner, seeded_url):
    """``wythoff`` on a copy of a catalog seeded as by ``seed --n 0``."""
    return command(runner, seeded_url)


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        (
            (2, 3),
            {
                "move": [2, 3],
                "adjoinable": False,
                "reason": "joins two P-positions",
                "witness": {"from": [3, 5], "to": [1, 2]},
            },
        ),
        (
            (3, 2),
            {
                "move": [3, 2],
                "adjoinable": False,
                "reason": "joins two P-positions",
                "witness": {"from": [5, 3], "to": [2, 1]},
            },
        ),
        (
            (2, 4),
            {
                "move": [2, 4],
                "adjoinable": True,
                "reason": "keeps the P-positions",
                "witness": None,
            },
        ),
        (
            (1, 3),
            {
                "move": [1, 3],
                "adjoinable": True,
                "reason": "keeps the P-positions",
                "witness": None,
            },
        ),
    ],
)
def test_adjoinable_whole_document(wythoff, move, expected):
    code, doc, err = wythoff("adjoinable", *map(str, move))
    assert (code, doc, err) == (0, expected, "")


def test_adjoinable_human_readable(wythoff):
    code, out, _ = wythoff("adjoinable", "2", "3", as_json=False)
    assert code == 0 and out == (
        "(2,3) and (3,2) cannot be added to Wythoff's Nim: "
        "joins two P-positions, e.g. (3,5) -> (1,2)\n"
    )
    code, out, _ = wythoff("adjoinable", "2", "4", as_json=False)
    assert (
        out == "(2,4) and (4,2) can be added to Wythoff's Nim: keeps the P-positions\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["0", "0"], "(0, 0) is not a move"),
        (["--", "-1", "2"], "non-negative number of tokens: (-1, 2)"),
        (["--", "2", "-5"], "non-negative number of tokens: (2, -5)"),
    ],
)
def test_adjoinable_bad_input_is_one_line(wythoff, args, message):
    code, out, err = wythoff("adjoinable", *args)
    assert code != 0 and out == ""
    assert message in err and err.count("\n") == 1


def test_show_box_seed_carries_theorem_2(seeded):
    code, doc, _ = seeded("show", "W000017")
    assert code == 0
    assert (doc["offset"], doc["defects"], doc["saturation_column"]) == (
        {"dx": 12, "dy": 7},
        50,
        8,
    )
    theory = doc["invariants"]
    assert {k: v["status"] for k, v in theory.items()} == {
        "offset": "theorem",
        "saturation": "theorem",
        "defects": "theorem",
        "overlap": "observed",
    }
    assert theory["offset"]["source"] == f"{HST}, Theorem 2"
    assert theory["offset"]["value"] == doc["offset"]
    assert theory["saturation"]["value"]["column"] == 8
    assert "dictionary" not in doc
    # Stored, not recomputed differently: the next show is the same document.
    assert seeded("show", "W000017")[1] == doc


@pytest.mark.parametrize(
    ("wid", "offset", "defects", "column"),
    [
        ("W000016", {"dx": 0, "dy": 0}, 4, 7),
        ("W000001", {"dx": 0, "dy": 0}, 0, 0),
        ("W000022", None, None, None),  # Ho's restriction: the theorem does not apply
    ],
)
def test_show_offsets_and_defects(wythoff, wid, offset, defects, column):
    doc = wythoff("show", wid)[1]
    assert (doc["offset"], doc["defects"], doc["saturation_column"]) == (
        offset,
        defects,
        column,
    )
    if offset is None:
        assert doc["invariants"] == {} and "dictionary" not in doc


def test_show_maharaja_json_dictionary_is_the_papers(wythoff):
    doc = wythoff("show", "W000004")[1]
    assert doc["dictionary"] == {w: t for w, (t, _) in MAHARAJA_27_35.items()}
    assert (doc["offset"], doc["defects"], doc["saturation_column"]) == (None,) * 3
    book = doc["invariants"]["dictionary"]
    assert book["paper"]["equations"] == {
        w: eq for w, (_, eq) in MAHARAJA_27_35.items()
    }
    assert book["paper"]["not_in_paper"] == [] and book["problems"] == []
    assert doc["invariants"]["deviations"]["value"] == {"min": -4, "max": 3}
    far = doc["invariants"]["far_out"]
    assert far["value"] == {"start": 8, "words": 14} and far["status"] == "theorem"


def test_show_maharaja_text_has_the_dictionary_table(wythoff):
    code, text, _ = wythoff("show", "W000004", as_json=False)
    assert code == 0
    lines = text.splitlines()
    header = lines.index("WORD       TRANSLATE         PAPER  FIRST  COUNT")
    assert lines[header - 1].startswith("dictionary (Larsson and Wästlund")
    rows = {line.split()[0]: line.split() for line in lines[header + 1 : header + 10]}
    assert set(rows) == set(MAHARAJA_27_35)
    for word, (translate, equation) in MAHARAJA_27_35.items():
        assert rows[word][1:3] == [translate, equation]
        first, count = map(int, rows[word][3:])
        assert first >= 8 and count > 0
    assert "(29)" in text and "deviations  min = -4, max = 3  [theorem:" in text
    far = "  far_out     start = 8, words = 14, checked on 61803 columns  [theorem: "
    assert far + "Larsson–Wästlund, Maharaja Nim, section 2" in text


def test_show_altered_text_lists_the_invariants(wythoff):
    code, text, _ = wythoff("show", "W000017", as_json=False)
    assert code == 0
    assert f"  offset      dx = 12, dy = 7  [theorem: {HST}, Theorem 2]" in text
    assert "  defects     50  [theorem: " in text


def test_is_p_far_out_on_an_altered_seed(seeded):
    assert seeded("compute", "W000017", "--n", "100")[0] == 0
    before = seeded("show", "W000017")[1]["computed"]
    assert before["x_bound"] == 100
    game = canonicalize(read_seed(seed_dir() / "W000017.json")["definition"])
    far = FarOut(saturation(game))
    near = set(map(tuple, p_positions(game.to_json(), 1000).tolist()))
    found, x = {}, 10**18
    while len(found) < 2:  # an upper and a lower P-position
        [y] = far.column(x)
        found.setdefault(y > x, (x, y))
        x += 1
    for x, y in found.values():
        assert seeded("is-p", "W000017", str(x), str(y)) == (
            0,
            {"id": "W000017", "position": [x, y], "outcome": "P", "move_to": None},
            "",
        )
        for row in (0, x, y - 1, y + 1, 2 * y):
            code, doc, _ = seeded("is-p", "W000017", str(x), str(row))
            assert code == 0 and doc["position"] == [x, row]
            assert doc["outcome"] == "N" and legal((x, row), doc["move_to"])
            # move_to is a P-position: by the table near the corner, by the
            # saturated column far out, and by is-p itself.
            tx, ty = doc["move_to"]
            if max(tx, ty) < 1000:
                assert (tx, ty) in near
            else:
                assert ty in far.column(tx)
            target = seeded("is-p", "W000017", str(tx), str(ty))[1]
            assert target["outcome"] == "P"
    assert seeded("show", "W000017")[1]["computed"] == before
