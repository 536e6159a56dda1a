"""The cone sweep's bucketed Fenwick trees (catalog.compute.conetrees): the
structure against a brute force, and the sweep with them forced on against
the dense engine, for each of the three kinds of cone that keep trees."""

from __future__ import annotations

import random

import numpy as np
import pytest

from catalog.compute import conesweep, conetrees, wedges
from catalog.compute.conesweep import cone_sweep_p_positions
from catalog.compute.dense import dense_p_positions
from catalog.compute.ruleset import rules

NIM = [[1, 0], [0, 1]]
NEG = conetrees.NEG


def one_class(size: int, log: int, entries: int) -> tuple[np.ndarray, ...]:
    """tv, tu, bits, the stored size and the pool of one class's tree of ``size``
    positions, plain (log 0) or bucketed, laid out as the sweep lays them."""
    row = [1, 0, 0, 0, 0, 1, 1]  # a mirrored cone of mod 1 over y', size n
    words = conesweep._tree_words(size, row, 0, False, log, entries)
    stored = 2 * conesweep._buckets(size, log) if log else size
    tv = np.full(words, NEG, dtype=np.int64)
    tu = np.zeros(words, dtype=np.int64)
    tu[0] = log
    tv[0] = 0  # the records' bitset, at the start of bits
    bits = np.zeros(conesweep._stair_words(stored // 2 if log else stored), np.uint64)
    return tv, tu, bits, stored, stored + 1


@pytest.mark.parametrize("log", range(6))
@pytest.mark.parametrize("seed", range(3))
def test_buckets_give_the_largest_v_of_the_prefix(log: int, seed: int) -> None:
    """Random entries (few values: ties abound) and prefix queries: the
    largest v at positions <= p, with a u of that v (NEG when none)."""
    rng = random.Random(seed)
    size = rng.randint(1, 300)
    entries = rng.randint(1, 120)
    tv, tu, bits, stored, pool = one_class(size, log, entries)
    held: list[tuple[int, int, int]] = []
    for _ in range(entries):
        p, v = rng.randrange(size), rng.randint(-6, 6)
        u = rng.randint(-1000, 1000)
        conetrees._tree_set(tv, tu, bits, 0, stored, pool, p, v, u)
        held.append((p, v, u))
        for q in (rng.randint(-2, size + 2), p, p - 1, size - 1):
            got_v, got_u = conetrees._tree_best(tv, tu, bits, 0, stored, pool, q)
            seen = [(v2, u2) for p2, v2, u2 in held if p2 <= q]
            want = max((v2 for v2, _ in seen), default=NEG)
            assert got_v == want, (log, q, held)
            if seen:
                assert (got_v, got_u) in seen, (log, q, held)
    if log:
        assert tu[pool] == entries  # the pool's counter


def random_tree_cone(rng: random.Random, kind: str, m: int) -> list[int]:
    """A cone that keeps trees: mirrored without an upper line (s1 >= 1),
    mirrored with one (not a band), or plain with one and s1 < s2 (a
    wedge, left to trees when components are switched off)."""
    s1 = rng.randint(1, 3)
    if kind == "over y'":
        return [s1, rng.randint(-4, 6), 0, 0, 0, m, 1]
    s2 = s1 + rng.randint(0 if kind == "over v'" and s1 > 1 else 1, 2)
    t1, t2 = rng.randint(-4, 5), rng.randint(-4, 5)
    return [s1, t1, s2, t2, 1, m, int(kind == "over v'")]


def random_game(rng: random.Random, kind: str, n: int) -> dict:
    # the first cone's trees big enough to be bucketed, the second's any
    mods = [rng.choice([8, 16, 37, 64]), rng.randint(1, 64)]
    cones = [random_tree_cone(rng, kind, m) for m in mods[: rng.choice([1, 1, 2])]]
    cells = [[rng.randrange(n), rng.randrange(n)] for _ in range(8)]
    forced_p = cells[: rng.randint(0, 4)]
    return {
        "cones": cones,
        "rays": NIM + [[1, 2]] * rng.randint(0, 1),
        "moves": [[rng.randint(0, 3), rng.randint(1, 3)]] * rng.randint(0, 1),
        "forced_p": forced_p + forced_p[:1],  # a duplicate enters twice
        "forced_n": [c for c in cells[4:] if c not in forced_p],
    }


def plain_bytes(n: int, game: dict) -> int:
    r = rules(game["rays"], game["moves"], conesweep._as_bands(game["cones"]))
    return conesweep._tree_bytes(n, r.cones, [0] * len(r.cones))


def bucketed(n: int, game: dict) -> bool:
    """Are some of the game's trees bucketed?"""
    r = rules(game["rays"], game["moves"], conesweep._as_bands(game["cones"]))
    trees = conesweep._trees(n, r.cones, r.kc, entries=n + len(game["forced_p"]))
    tbase, tu = trees[2], trees[5]
    return any(tu[b] for b in tbase)


@pytest.mark.parametrize("kind", ["over y'", "over v'", "over u'"])
@pytest.mark.parametrize("seed", range(2))
def test_sweep_with_buckets_matches_the_dense_engine(
    kind: str, seed: int, monkeypatch
) -> None:
    """The plain trees one byte over the budget: the big ones bucketed (B
    about m (s + 1), then 8 times that), small ones left plain beside them;
    the class search and the climb (a third of these games) agree with the
    dense engine."""
    rng = random.Random(100 * seed + len(kind))
    monkeypatch.setattr(wedges, "shear", lambda row: 0)  # wedges in trees too
    logs = conesweep._bucket_logs
    for extra in (0, 3):
        monkeypatch.setattr(
            conesweep,
            "_bucket_logs",
            lambda *a, e=extra: [g and g + e for g in logs(*a)],
        )
        for _ in range(3):
            n = rng.randint(500, 1500)
            game = random_game(rng, kind, n)
            monkeypatch.setattr(conesweep, "TREE_BUDGET", plain_bytes(n, game) - 1)
            assert bucketed(n, game)
            np.testing.assert_array_equal(
                cone_sweep_p_positions(n, **game),
                dense_p_positions(n, **game),
                str((extra, game)),
            )


def test_buckets_hold_about_one_entry_each() -> None:
    """The benchmark's mirrored 2..3 mod 64 at 10^6 (plain: 4.1 GB, refused
    before): buckets of 256 = m (s2 + 1), about 64 MB."""
    n, cones = 10**6, [[2, 0, 3, 1, 1, 64, 1]]
    r = rules(NIM, None, cones)
    assert conesweep._tree_bytes(n, r.cones, [0]) > conesweep.TREE_BUDGET
    _, _, tbase, tsize, tv, tu, _, _ = conesweep._trees(n, r.cones, r.kc)
    assert tu[tbase[0]] == 8
    assert tv.nbytes + tu.nbytes < 70 * 2**20
    assert np.all(tu[: 64 * (tsize[0] + 1) : tsize[0] + 1] == 8)


def test_refused_when_even_buckets_pass_the_budget(monkeypatch) -> None:
    """A bucketed cone still takes 32 bytes a P-position for its pool."""
    cones = [[2, 0, 3, 1, 1, 64, 1], [2, 1, 0, 0, 0, 64, 1]]
    with pytest.raises(ValueError, match="trees need"):
        cone_sweep_p_positions(10**8, cones)
    n = 500
    monkeypatch.setattr(conesweep, "TREE_BUDGET", 2 * 32 * n)
    with pytest.raises(ValueError, match="trees need"):
        cone_sweep_p_positions(n, cones)
