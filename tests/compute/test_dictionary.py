"""The bit-string and dictionary of Maharaja Nim against Larsson–Wästlund.

U. Larsson, J. Wästlund, Maharaja Nim: Wythoff's Queen meets the Knight,
arXiv:1207.0765: section 2.2 (worked example), 2.3 (dictionary (27)-(40)) and
5.1 ((2,3)-Maharaja Nim, dictionary (41)-(44)).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
import pytest

from catalog import p_positions
from catalog.compute import dictionary
from catalog.compute.dictionary import (
    MAHARAJA_MOVES,
    MAX_PROBLEMS,
    Dictionary,
    Rule,
    Vector,
    bit_text,
    bitstring,
    column_values,
    deviations,
    is_maharaja_type,
    maharaja_invariants,
    perfect_columns,
    read_dictionary,
)
from catalog.games.definition import Definition, DefinitionError, canonicalize
from tests.papers import MAHARAJA_WORDS

RAYS = [[1, 0], [0, 1], [1, 1]]
MAHARAJA = {"rays": RAYS, "moves": [[1, 2], [2, 1]]}
MAHARAJA_23 = {"rays": RAYS, "moves": [[2, 3], [3, 2]]}
N = 60_000  # about 23,000 columns read, 37,000 bits known

PAPER_36_40 = ["0000000", "0010100", "0011110", "00000010", "00001000"]
# (41)-(44), non-prefix-free: read with the longest match (section 5.1).
PAPER_41_44 = {"0": "10", "1": "0", "01000": "100011100", "01010": "10001100"}
# What the sector rule reads for (2,3)-Maharaja Nim instead (not in the paper).
SECTOR_23 = {
    "01010": "10001100",
    "0011": "101000",
    "00010001": "10101000111000",
    "1": "0",
    "001010": "1010001100",
    "00011": "10101000",
    "00001010": "10101010001100",
    "0001010": "101010001100",
    "010001": "1000111000",
    "000001010": "1010101010001100",
}


@pytest.fixture(scope="module")
def maharaja():
    return p_positions(MAHARAJA, N)


@pytest.fixture(scope="module")
def maharaja_23():
    return p_positions(MAHARAJA_23, N)


def text(positions, n=N):
    return "".join(map(str, bitstring(positions, n).tolist()))


def run_process(bits, start, words):
    """Regenerate the bit-string from its prefix and the dictionary alone.

    The prefix ends where the first translate begins: at row k + 1 with
    k = start - 1 + (the number of upper P-positions left of start), section
    2.1. The read head takes the longest word that is a prefix of what follows
    (section 5.1's rule; for a prefix-free dictionary the only one) and the
    translate is appended (section 3).
    """
    out = bits[: start + bits[:start].count("0")]
    head, parse, longest = start, [], max(map(len, words))
    while len(out) < len(bits):
        seen = out[head : head + longest]
        assert not any(len(w) > len(seen) and w.startswith(seen) for w in words)
        word = max((w for w in words if seen.startswith(w)), key=len)
        parse.append((head, word))
        out += words[word]
        head += len(word)
    return out[: len(bits)], parse


def test_worked_example(maharaja):
    """Section 2.2: '00100' -> '100101100', '1' -> '0', '0010110' -> '10010011000'."""
    ys = dict(map(tuple, maharaja[maharaja[:, 0] < 13].tolist()))
    assert [ys[x] for x in range(8, 13)] == [13, 16, 7, 19, 18]
    book = read_dictionary(maharaja, N)
    assert book.start == 8
    assert book.parse[:3] == ((8, "00100"), (13, "1"), (14, "0010110"))
    assert book.words["00100"] == "100101100"
    assert book.words["1"] == "0"
    assert book.words["0010110"] == "10010011000"
    # Each translate is concatenated at the end of the bit-string.
    assert text(maharaja)[8:34] == "00100100101100010010011000"


def test_maharaja_dictionary_is_27_to_35(maharaja):
    book = read_dictionary(maharaja, N)
    assert book.start + book.columns >= 20_000
    assert book.words == MAHARAJA_WORDS
    assert not set(PAPER_36_40) & set(book.words)
    assert book.problems == ()
    bits = text(maharaja)
    assert list(book.first) == sorted(book.first, key=book.first.__getitem__)
    for word, column in book.first.items():
        assert column > 0 and bits[column : column + len(word)] == word
        assert book.counts[word] > 0
    assert sum(book.counts.values()) == len(book.parse)
    assert sum(len(w) * c for w, c in book.counts.items()) == book.columns


def test_maharaja_deviations(maharaja):
    """-4 <= b_n - a_n - n <= 3 (end of section 2), both bounds attained."""
    dev = deviations(maharaja, N)
    assert (dev.min, dev.max) == (-4, 3)
    assert dev.n_terms > 20_000
    assert 0 < dev.first_min < 100 and 0 < dev.first_max < 100


@pytest.mark.parametrize(
    ("game", "rule", "expected", "start"),
    [
        (MAHARAJA, "sector", MAHARAJA_WORDS, 8),
        (MAHARAJA_23, "relaxed", PAPER_41_44, 9),
        (MAHARAJA_23, "sector", SECTOR_23, 19),
    ],
)
def test_process_regenerates_the_bitstring(game, rule, expected, start):
    """Independent check: prefix + dictionary process == the P-positions."""
    positions = p_positions(game, N)
    book = read_dictionary(positions, N, canonicalize(game).moves, rule=rule)
    assert (book.words, book.start, book.problems) == (expected, start, ())
    bits = text(positions)
    regenerated, parse = run_process(bits, start, expected)
    assert regenerated == bits
    # The longest-match parse is the parse at perfect columns.
    assert tuple(parse[: len(book.parse)]) == book.parse


def test_maharaja_23_is_41_to_44(maharaja_23):
    """Section 5.1: the first P-positions, bit-strings and translations."""
    ys = dict(map(tuple, maharaja_23[maharaja_23[:, 0] < 9].tolist()))
    assert [ys[x] for x in range(1, 9)] == [2, 1, 6, 8, 7, 3, 5, 4]
    book = read_dictionary(maharaja_23, N, [(2, 3), (3, 2)], rule="relaxed")
    assert book.words == PAPER_41_44
    assert book.start == 9 and book.first["01010"] == 13
    assert [w for _, w in book.parse[:5]] == ["0", "0", "0", "0", "01010"]
    bits = text(maharaja_23)
    assert bits[1:14] == "0100011100000"
    assert bits[1:22] == "010001110000010101010"  # four translations (41)
    assert bits[1:30] == "01000111000001010101010001100"  # then one (44)
    dev = deviations(maharaja_23, N)
    assert (dev.min, dev.max) == (-2, 1)


def test_relaxed_rule_on_maharaja_splits_01(maharaja):
    book = read_dictionary(maharaja, N, rule="relaxed")
    expected = {w: t for w, t in MAHARAJA_WORDS.items() if w != "01"} | {"0": "10"}
    assert book.words == expected and book.problems == ()


def test_wythoff_reads_the_fibonacci_morphism():
    """Wythoff's Nim: no moves, the bit-string is the Fibonacci word."""
    positions = p_positions({"rays": RAYS}, 5_000)
    book = read_dictionary(positions, 5_000, ())
    assert book.words == {"0": "10", "1": "0"} and book.problems == ()


def test_problems_are_reported(maharaja):
    tampered = maharaja.copy()
    row = int(np.flatnonzero(tampered[:, 0] == 1000)[0])
    assert tampered[row].tolist() == [1000, 1620]
    tampered[row, 1] += 1  # no longer symmetric: row 1620 loses its P-position
    problems = read_dictionary(tampered, N).problems
    assert any("is not the bit-string" in p for p in problems)
    assert any("translates to" in p for p in problems)


@pytest.mark.parametrize(
    ("definition", "expected"),
    [
        (MAHARAJA, True),
        (MAHARAJA_23, True),
        ({"rays": RAYS, "moves": [[1, 2], [2, 1], [3, 5], [5, 3]]}, True),
        ({"rays": RAYS, "moves": [[1, 2], [2, 1], [1, 1], [0, 2]]}, True),
        ({"rays": RAYS}, False),
        ({"rays": RAYS, "moves": [[1, 2]]}, False),
        ({"rays": RAYS, "moves": [[1, 2], [2, 1], [2, 3]]}, False),
        ({"rays": [[1, 0], [0, 1]], "moves": [[1, 2], [2, 1]]}, False),
        ({**MAHARAJA, "special": ["ho-restriction"]}, False),
        ({**MAHARAJA, "alter": {"P": [], "N": [[1, 1]]}}, False),
    ],
)
def test_is_maharaja_type(definition, expected):
    assert is_maharaja_type(canonicalize(definition)) is expected


def test_is_maharaja_type_rejects_diagonal_and_axis_moves():
    rays = ((0, 1), (1, 0), (1, 1))
    assert not is_maharaja_type(Definition(rays, ((1, 1),)))
    assert not is_maharaja_type(Definition(rays, ((0, 3), (3, 0))))


def test_maharaja_invariants():
    inv = maharaja_invariants(MAHARAJA)
    assert json.loads(json.dumps(inv)) == inv
    assert inv["bitstring_deviation"]["min"] == -4
    assert inv["bitstring_deviation"]["max"] == 3
    assert inv["dictionary"] == MAHARAJA_WORDS
    assert inv["dictionary_first"]["00100"] == inv["dictionary_start"] == 8
    assert inv["dictionary_columns"] > 30_000 and inv["problems"] == []
    assert set(inv["dictionary_counts"]) == set(MAHARAJA_WORDS)
    relaxed = maharaja_invariants(MAHARAJA_23, 20_000, rule="relaxed")
    assert relaxed["dictionary"] == PAPER_41_44
    with pytest.raises(DefinitionError):
        maharaja_invariants({"rays": RAYS})


# -- the fast reading against the paper's loop ---------------------------------


def read_by_loop(
    positions: np.ndarray,
    n: int,
    moves: Iterable[Vector] = MAHARAJA_MOVES,
    *,
    rule: Rule = "sector",
) -> Dictionary:
    """The reading of read_dictionary, word by word as the paper does it."""
    ys = column_values(positions, n)
    c = len(ys)
    text = bit_text(ys < np.arange(c))
    in_row = np.zeros(max(n, c), dtype=np.uint8)
    upper = positions[positions[:, 1] > positions[:, 0]]
    in_row[upper[:, 1]] = 1  # row j holds an upper P-position
    rows = bit_text(in_row[:c])
    count = np.cumsum(ys >= np.arange(c)).tolist()
    perfect = np.flatnonzero(perfect_columns(positions, n, moves, rule=rule)).tolist()

    words: dict[str, str] = {}
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    problems: list[str] = []
    parse: list[tuple[int, str]] = []
    start: int | None = None
    written: int | None = None  # end of the previous translate
    end = 0
    for x, x_next in zip(perfect, perfect[1:], strict=False):
        s, word = x + 1, text[x + 1 : x_next + 1]
        k = x + count[x]  # X + C + 1 with C + 1 upper P-positions in columns <= X
        stop = k + 1 + len(word) + word.count("0")
        if stop > c:
            break
        if start is None:
            if word[0] == "1" or k < x_next:
                continue  # rows and columns still interfere
            start = s
        translate = rows[k + 1 : stop]
        if k < x_next:
            problems.append(f"word {word} at column {s} overlaps its translate")
        if written is not None and k + 1 != written:
            problems.append(
                f"translate of {word} at column {s} starts at {k + 1}, not {written}"
            )
        if translate != text[k + 1 : stop]:
            problems.append(
                f"translate {translate} of {word} at column {s} is not the "
                f"bit-string {text[k + 1 : stop]}"
            )
        if word not in words:
            words[word], first[word], counts[word] = translate, s, 0
        elif words[word] != translate:
            problems.append(
                f"word {word} at column {s} translates to {translate}, "
                f"at column {first[word]} to {words[word]}"
            )
        counts[word] += 1
        parse.append((s, word))
        written, end = stop, x_next + 1
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems[MAX_PROBLEMS:] = [f"... and {more} more problems"]
    return Dictionary(
        words=words,
        first=first,
        counts=counts,
        start=start,
        columns=end - start if start is not None else 0,
        bits=c,
        problems=tuple(problems),
        parse=tuple(parse),
        rule=rule,
    )


@pytest.mark.parametrize("layout", ["matrix", "slices"])
@pytest.mark.parametrize("rule", ["sector", "relaxed"])
def test_the_reading_is_the_loops_on_many_games(rule, layout, monkeypatch):
    """Every Maharaja-type game with a move pair (i, j), j <= 9; some with
    their positions damaged, and some read at random columns taken for
    perfect ones: problems of every kind, in the same order. Equal words
    are numbered by a byte matrix, or (past its size) by their slices."""
    if layout == "slices":
        monkeypatch.setattr(dictionary, "MAX_CLASS_BYTES", 0)
    rng = np.random.default_rng(11)
    seen = set()
    real = perfect_columns
    for i in range(1, 9):
        for j in range(i + 1, 10):
            game = canonicalize({"rays": RAYS, "moves": [[i, j], [j, i]]})
            n = 1500
            found = p_positions(game, n)
            cases = [(found, real)]
            if (i + j) % 3 == 0:  # some upper positions moved
                damaged = found.copy()
                rows = rng.choice(len(found), 40, replace=False)
                damaged[rows, 1] -= rng.integers(1, 4, 40)
                damaged = damaged[np.lexsort((damaged[:, 1], damaged[:, 0]))]
                cases.append((damaged, real))
            if (i + j) % 3 == 1:  # a random tenth of the columns
                cases.append((found, taken_for_perfect(rng.random(n) < 0.1)))
            for positions, perfect in cases:
                monkeypatch.setattr(dictionary, "perfect_columns", perfect)
                monkeypatch.setitem(globals(), "perfect_columns", perfect)
                fast = read_dictionary(positions, n, game.moves, rule=rule)
                slow = read_by_loop(positions, n, game.moves, rule=rule)
                assert fast == slow, (i, j, rule)
                assert list(fast.words) == list(slow.words)
                seen |= {kind(p) for p in fast.problems}
    # (A translate never starts elsewhere than where the last one stopped:
    # the loop's check of that is never met.)
    assert seen == {"overlap", "mismatch", "two translates", "more"}


def taken_for_perfect(chosen: np.ndarray):
    """A stand-in for perfect_columns: the ``chosen`` columns."""

    def perfect(positions, n, moves=MAHARAJA_MOVES, *, rule="sector"):
        return chosen[: len(column_values(positions, n))]

    return perfect


def kind(problem: str) -> str:
    if problem.startswith("..."):
        return "more"
    if problem.startswith("translate of"):
        return "gap"
    if problem.startswith("translate"):
        return "mismatch"
    if problem.endswith("overlaps its translate"):
        return "overlap"
    return "two translates"
