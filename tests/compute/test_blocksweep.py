"""The blocking sweep (catalog.compute.blocksweep) against the literal rules
(catalog.compute.kind_reference), the dense engine and the normal-play
kernel, on random games and at large n against the rule itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

import catalog
from catalog.compute import blocksweep, kind_reference
from catalog.compute.blocksweep import block_sweep_p_positions, layout, table_bytes
from catalog.compute.dense import dense_p_positions
from catalog.errors import TooMuchWork

NIM = [[1, 0], [0, 1]]
WYTHOFF = [*NIM, [1, 1]]
KNIGHT = [[1, 2], [2, 1]]


def random_game(rng: random.Random, n: int) -> dict:
    """Nim's rays, other rays (parallel ones often: (2, 2) beside (3, 3)),
    single moves, forced cells and a block of 0 to 4, at random."""
    extra = [[rng.randint(1, 4), rng.randint(1, 4)] for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.3:
        extra += [[2, 2], [3, 3]]
    moves = [[rng.randint(0, 4), rng.randint(0, 4)] for _ in range(rng.randint(0, 3))]
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(8)]
    forced_p = cells[: rng.randint(0, 4)]
    return {
        "block": rng.choice([0, 1, 1, 2, 2, 3, 4]),
        "rays": NIM + extra,
        "moves": [m for m in moves if m != [0, 0]],
        "forced_p": forced_p,
        "forced_n": [c for c in cells[4:] if c not in forced_p],
    }


@pytest.mark.parametrize("seed", range(6))
def test_sweep_matches_the_literal_rules(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(1, 30)
        game = random_game(rng, n)
        expected = kind_reference.p_positions(n, **game)
        found = block_sweep_p_positions(n, **game)
        np.testing.assert_array_equal(found, expected, str(game))


@pytest.mark.parametrize("seed", range(3))
def test_sweep_matches_the_dense_engine(seed: int) -> None:
    rng = random.Random(50 + seed)
    for _ in range(15):
        n = rng.randint(60, 250)
        game = random_game(rng, n)
        game["rays"] = [r for r in game["rays"] if r not in ([2, 2], [3, 3])]
        np.testing.assert_array_equal(
            block_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


def mirrored(game: dict) -> dict:
    """The game with every rule and forced cell mirrored in as well (a
    cell forced both ways is left out)."""

    def both(pairs: list) -> list:
        return sorted({tuple(c) for c in pairs} | {(b, a) for a, b in pairs})

    p, n = both(game["forced_p"]), both(game["forced_n"])
    return {
        **game,
        "rays": both(game["rays"]),
        "moves": both(game["moves"]),
        "forced_p": [c for c in p if c not in n],
        "forced_n": [c for c in n if c not in p],
    }


@pytest.mark.parametrize("seed", range(4))
def test_symmetric_games_scan_from_the_diagonal(seed: int) -> None:
    """A game that is its own mirror takes each column's P-positions below
    the diagonal from its row: the same as the literal rules and as the
    scan of the whole column."""
    rng = random.Random(100 + seed)
    for _ in range(40):
        n = rng.randint(1, 30)
        game = mirrored(random_game(rng, n))
        lay = layout(game["block"], game["rays"], game["moves"])
        fp, fn = (
            np.array(game[k], dtype=np.int64).reshape(-1, 2)
            for k in ("forced_p", "forced_n")
        )
        assert blocksweep._symmetric(lay, fp[(fp < n).all(1)], fn[(fn < n).all(1)])
        np.testing.assert_array_equal(
            block_sweep_p_positions(n, **game),
            kind_reference.p_positions(n, **game),
            str(game),
        )


def whole_columns(monkeypatch: pytest.MonkeyPatch, n: int, game: dict) -> np.ndarray:
    """The sweep scanning every column from row 0, as for a game that is
    not its own mirror."""
    with monkeypatch.context() as patch:
        patch.setattr(blocksweep, "_symmetric", lambda *_: False)
        return block_sweep_p_positions(n, **game)


@pytest.mark.parametrize("block", [1, 2, 3, 4])
@pytest.mark.parametrize("moves", [[], KNIGHT])
def test_the_diagonal_start_agrees_with_whole_columns(
    monkeypatch: pytest.MonkeyPatch, block: int, moves: list
) -> None:
    """Blocking Wythoff and Maharaja Nim at n = 3·10^4, where b = 1's rows
    and diagonals interleave over thousands of words a column."""
    game = {"block": block, "rays": WYTHOFF, "moves": moves}
    np.testing.assert_array_equal(
        block_sweep_p_positions(30_000, **game),
        whole_columns(monkeypatch, 30_000, game),
    )


@pytest.mark.parametrize("seed", range(2))
def test_long_word_scans_match_the_dense_engine(seed: int) -> None:
    """Block 1 and 2 with Wythoff's diagonal, a ray of stride 2 or 3 (its
    lines a residue class apart in the bitsets) and single moves, at sizes
    where the searches pass many words, symmetric or not."""
    rng = random.Random(200 + seed)
    for _ in range(4):
        n = rng.randint(900, 1500)
        game = random_game(rng, n)
        game["block"] = rng.choice([1, 2])
        game["rays"] = [*WYTHOFF, rng.choice([[1, 2], [2, 1], [3, 1], [2, 3]])]
        if rng.random() < 0.5:
            game = mirrored(game)
        np.testing.assert_array_equal(
            block_sweep_p_positions(n, **game), dense_p_positions(n, **game), str(game)
        )


@pytest.mark.parametrize("count", [1, 2])
def test_fewer_levels_find_the_same_positions(count: int) -> None:
    """With fewer union-find levels (as when b is large) every cell found
    is counted exactly: the same answer, more slowly."""
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(1, 60)
        game = random_game(rng, n)
        np.testing.assert_array_equal(
            block_sweep_p_positions(n, **game, count=count),
            block_sweep_p_positions(n, **game),
            str(game),
        )


@pytest.mark.parametrize("moves", [[], KNIGHT])
def test_block_zero_is_the_normal_play_kernel(moves: list) -> None:
    n = 20000
    found = block_sweep_p_positions(n, 0, WYTHOFF, moves)
    np.testing.assert_array_equal(
        found, catalog.p_positions({"rays": WYTHOFF, "moves": moves}, n)
    )


def p_options(found: np.ndarray, p: set, x: int, y: int, moves: list) -> int:
    """The P options of (x, y) in Wythoff's Nim (plus ``moves``), counted
    from the P-positions ``found`` (and their set ``p``) by the rule's
    words: left in its row, below in its column, down its diagonal, and
    the single moves' targets (none of which lies on a ray)."""
    fx, fy = found[:, 0], found[:, 1]
    count = int(((fy == y) & (fx < x)).sum() + ((fx == x) & (fy < y)).sum())
    count += int(((fy - fx == y - x) & (fx < x)).sum())
    return count + sum((x - a, y - b) in p for a, b in moves if x >= a and y >= b)


@pytest.mark.parametrize("block", [1, 2, 3, 4])
@pytest.mark.parametrize("moves", [[], KNIGHT])
def test_far_cells_obey_the_rule(block: int, moves: list) -> None:
    """At n = 10^5 (Blocking Wythoff Nim and Blocking Maharaja Nim): every
    P-position found has at most b P options, sampled cells that were not
    found have more, each row and column holds at most b + 1, and the
    symmetric games' positions are symmetric."""
    n = 10**5
    found = block_sweep_p_positions(n, block, WYTHOFF, moves)
    p = set(map(tuple, found.tolist()))
    assert p == {(y, x) for x, y in p}
    for axis in (0, 1):
        assert np.bincount(found[:, axis]).max() <= block + 1
    rng = random.Random(block)
    tops = found[found[:, 0] > n - n // 20]
    for x, y in tops[rng.sample(range(len(tops)), 40)].tolist():
        assert p_options(found, p, x, y, moves) <= block
    checked = 0
    while checked < 40:
        x, y = rng.randrange(n - n // 30, n), rng.randrange(0, n)
        if (x, y) not in p:
            assert p_options(found, p, x, y, moves) > block, (x, y)
            checked += 1
    # and near the rows and diagonals of the found positions, where counts
    # are close to b
    for x, y in tops[:20].tolist():
        for dy in (-1, 1, 2):
            if 0 <= y + dy < n and (x, y + dy) not in p:
                assert p_options(found, p, x, y + dy, moves) > block


def test_the_catalog_takes_the_sweep_for_alterations_too() -> None:
    definition = {
        "rays": WYTHOFF,
        "moves": KNIGHT,
        "block": 2,
        "alter": {"P": [[3, 3], [40, 7]], "N": [[0, 0], [5, 9]]},
    }
    spec = {
        "rays": WYTHOFF,
        "moves": KNIGHT,
        "block": 2,
        "forced_p": [[3, 3], [40, 7]],
        "forced_n": [[0, 0], [5, 9]],
    }
    np.testing.assert_array_equal(
        catalog.p_positions(definition, 60), kind_reference.p_positions(60, **spec)
    )


def test_bad_input_and_too_much_memory() -> None:
    with pytest.raises(ValueError, match="both rays"):
        block_sweep_p_positions(10, 1, [[1, 0], [1, 1]])
    with pytest.raises(ValueError, match="forced both"):
        block_sweep_p_positions(10, 1, NIM, forced_p=[[1, 1]], forced_n=[[1, 1]])
    assert block_sweep_p_positions(0, 1, NIM).shape == (0, 2)
    assert table_bytes(10**8, layout(4, WYTHOFF), 5) > 2**30
    with pytest.raises(TooMuchWork, match="^n=100000000: the blocking sweep"):
        catalog.p_positions({"rays": WYTHOFF, "block": 4}, 10**8)


def first_stop(bits: np.ndarray, r0: int, q0: int, sh: int, i: int, last: int) -> int:
    """blocksweep._run written out: the first word j in i..last whose row
    word is empty, whose line word (two words shifted by sh) is empty, or
    whose AND is not; last + 1 if none."""
    for j in range(i, last + 1):
        row = int(bits[r0 + j])
        line = ((int(bits[q0 + j]) >> sh) | (int(bits[q0 + j + 1]) << (64 - sh))) & (
            2**64 - 1
        )
        if row == 0 or line == 0 or row & line:
            return j
    return last + 1


@pytest.mark.parametrize("seed", range(4))
def test_the_vectorised_run_stops_where_the_plain_one_does(seed: int) -> None:
    """_run tests whole blocks of words (blocksweep.RUN_BLOCK) before the
    word: a stretch of rows and lines that never meet (every other bit, as
    Blocking Wythoff Nim's free rows and open diagonals), with an empty row
    word, an empty line word or a cell planted at random places, around the
    blocks' edges too, and every shift."""
    rng = random.Random(300 + seed)
    words = 300
    for _ in range(150):
        sh = rng.randrange(64)
        bits = np.zeros(2 * words + 2, dtype=np.uint64)
        bits[:words] = np.uint64(0xAAAAAAAAAAAAAAAA)
        # lines whose shifted word is 0x5555...: 0x5555... << sh, spread over two
        line = 0x5555555555555555 << sh
        for j in range(words + 1):
            lo = (line & (2**64 - 1)) if j < words else 0
            hi = (line >> 64) if j > 0 else 0
            bits[words + j] = np.uint64(lo | hi)
        for _ in range(rng.randint(0, 2)):
            at = rng.choice([rng.randrange(words), 31, 32, 33, 63, 64, words - 1])
            what = rng.choice(["row", "line", "cell"])
            if what == "row":
                bits[at] = np.uint64(0)
            elif what == "cell":
                bits[at] |= np.uint64(1) << np.uint64(rng.randrange(64))
            else:
                bits[words + at] = np.uint64(0)
                bits[words + at + 1] = np.uint64(0)
        i = rng.randrange(words // 2)
        last = rng.randrange(i, words - 1)
        want = first_stop(bits, 0, words, sh, i, last)
        got = blocksweep._run(bits, 0, words, np.uint64(sh), i, last)
        assert got == want, (sh, i, last)
