"""The compiled column sweep for cone games with both Nim rays.

With the rays (1, 0) and (0, 1), a row and a column hold at most one
P-position apart from forced ones: column x's is its lowest cell that is in
a free row (no P-position to its left) and that no other rule blocks, and
every cell above it is N. So the sweep labels columns x = 0, 1, ..., n - 1
and looks in each only for that cell, below n: every P-position with x, y < n
is found in its own column.

The search leapfrogs, as :mod:`catalog.compute.kernel`'s does. With M the
least common multiple of the cones' mods, the rows of each class r mod M are
searched apart: a "next free row" union-find over rows, whose chains link
rows M apart, gives the lowest free row of the class, and each cone either
lets the candidate y pass or names a row below which every row of its class
stays blocked, where the search goes on. (When M > 1 and every cone's
blocked rows only grow under one shear σ ≡ 1 (mod M), as wedges, bands and
cones without an upper line mostly do, :mod:`catalog.compute.wedgescan`
climbs each column once over all classes instead: searched apart, a
column's time grew with M.) A cone blocks (x, y) iff some earlier P-position (x', y')
lies in its wedge:

- a wedge (both lines, s1 < s2; mirrored, s1 <= 1 <= s2): growing, merging
  components of each class (:mod:`catalog.compute.wedges`), one predecessor
  search a query and O(1) amortised a column; the structures below are for
  the other cones (and for wedges whose components would pass
  :data:`TREE_BUDGET` when the trees would not).
- plain cone, k = x - x', l = y - y': with u' = y' - s1 x' and v' = y' - s2 x',
  u' <= y - s1 x - t1, v' >= y - s2 x - t2 (has_hi) and y' - x' ≡ y - x (mod m).
  Past k >= kc, l >= 1 follows, so the P-positions enter a structure kc
  columns late: per class the least u' (no upper bound; once blocked, the
  rest of the class is), or a prefix-maximum tree over u' keeping the largest v'
  (the point found blocks up to y = v' + s2 x + t2). The kc - 1 latest
  columns are checked directly.
- mirrored cone without an upper bound and s1 = 0 (every step with
  dx >= max(1, t1), dy >= 1 in its class): per class the least y', entered
  max(1, t1) columns late (it blocks the rest of the class above it).
- mirrored cone, l = x - x', k = y - y': u' = x' - s1 y', v' = x' - s2 y';
  l >= 1 holds, k >= 1 does not: without an upper bound (s1 >= 1) a
  prefix-maximum tree over y' keeps the least u' (prefix y' < y); with one,
  a P-position with k <= 0 would need l <= t2, so they enter t2 + 1 columns
  late into a tree over v' (a suffix v' >= x - s2 y - t2) keeping
  the least u' (that point blocks up to y = (x - t1 - u') // s1, the
  farthest of all).
- a band (a plain cone with s1 = s2 = s, as a-Wythoff's): a P-position blocks
  the lines w = y - s x in [u' + t1, u' + t2] of its class, for good. A
  "next free line" union-find per class (chains m lines apart) marks each
  line once and sends the search straight past the run of blocked lines,
  where a tree would stop at every band (in the climb below, its
  union-find of settled rows holds them). A mirrored band of slope 1 is the
  plain band [1, -t2, 1, -t1].

Their code, shared with the climb, is :mod:`catalog.compute.conetrees`: a
tree answers the largest v' of a prefix from its records, kept in a bitset
(a predecessor search a query). A tree spans up to (s + 1) n positions in
each of m classes but holds about n / m entries a class: where that is
smaller, a cone's trees are bucketed (B = 2^k positions a bucket, B about m
(s + 1), a list of entries a bucket), about 64 n bytes a cone.

Other rays (a, b) with a, b >= 1 keep a "next free line" union-find of
their lines, whose chains link the lines of rows M apart (a column's rows
of one class), which sends the search past a ray's run of used lines of
its class in one find (:func:`catalog.compute.conecells._rays_free`;
chains of adjacent rows stopped at each free line of another class, and
a column with no P-position walked its classes up to n, quadratic beside
Wythoff's diagonal with the cones 3..∞ mod 7 and their mirrors: 764 steps
a column at 10^5, 10 now); single moves look at the P-positions of
column x - a, and forced N cells are looked up, each sending the search one
row of the class up.

A game that is not its own transpose is swept with its piles swapped
where a probe finds that takes fewer steps (:func:`_probe_transpose`), its
P-positions mirrored back: a mirrored cone with s1 >= 2 merges its runs
only where their real ends meet, its plain twin by residues.

The sweep and the wedges' functions are compiled without numba's reference
counts (``_nrt=False``: they allocate nothing, the caller hands them every
array). With them, each call and each inlined helper taking arrays paid an
atomic increment and decrement per array, which was most of a column's time.

References
----------
.. [1] A. S. Fraenkel, Amer. Math. Monthly 89 (1982) 353–361 (a-Wythoff).
.. [2] A. S. Fraenkel, Annals of Combinatorics 2 (1998) 197–210
   ((s,t)-Wythoff).
.. [3] T. Khovanova, J. Niu, "m-Modular Wythoff", arXiv:1608.01025.
"""

from __future__ import annotations

from math import lcm
from typing import Any

import numpy as np

from catalog.compute import bitsets, conetrees, wedges, wedgescan
from catalog.compute.conecells import (
    _blocked,
    _last_blocked,
    _nforced,
    _rays_free,
    _row,
    _use_lines,
)
from catalog.compute.jit import njit
from catalog.compute.kernel import _csr, _find, _mod
from catalog.compute.ruleset import mirrored, rules
from catalog.compute.wedges import ENTRY, KIND, field, insert, last_blocked, merge_due

INF = np.iinfo(np.int64).max // 4
NEG = -INF
#: A game as the sweep takes it: cones, rays, moves, forced_p, forced_n.
Game = tuple[Any, Any, Any, Any, Any]
#: Bytes of trees above which :func:`cone_sweep_p_positions` refuses.
TREE_BUDGET = 2**30


@njit(cache=True, _nrt=False)
def _sweep(
    n, big_m, cones, delay, shift, tbase, tsize, tv, tu, ws, bits, rays, used, lbase,
    moves, fp_start, fp_y, fn_start, fn_y, col, rows, low, stats, sym, mirror,
    dq, dkey, caps,
):  # fmt: skip
    """Fill col[x] (the natural P-position of column x below n, or -1) for
    x < n; returns nothing. The structures are described in the module.

    ``low[r]`` (M values, r at first) is a row of residue r mod M with every
    row of the residue below it taken (or, with ``sym``, below the diagonal,
    which only rises): the least free row of a residue is
    found from there, and a residue whose ``low`` is at or above the best row
    found so far is not searched at all. The residues are searched from their
    least row up, so that the column's answer, most often near its least
    free row, prunes the others early. That order needs no search of the
    residues: from the lowest row ``base`` (the diagonal with ``sym``, else
    the least ``low``) one cycle of M rows meets each residue at its first
    row, and a residue whose ``low`` lies higher (at least M rows up) waits
    in ``dq``/``dkey`` (residue, row) until the cycle ends, when the waiting
    ones go from the least row up; a residue whose first row is taken waits
    at its least free row. (A scan of the M residues for the least row at
    each pick had taken a quarter of the time with M = 16; a sort of them
    all, up front, more than the search with M = 64.) ``stats[0]`` counts
    the search's steps (a free row found, or a cone asked), which the cost
    estimate probes. A residue that a cone blocks from its first row on is
    not searched, and each search stops where one does (``caps``,
    :func:`_caps`). ``sym``: the game is its own mirror and forces no cell
    (:func:`_symmetric`), so a column's P-position below the diagonal is
    the mirror of one found
    (``mirror[y]``: the column whose P-position lies in row y above it, -1
    if none yet) and with none, the search starts at the diagonal."""
    nc = cones.shape[0]
    forced_cols = fp_start.size - 1
    # Only then is _blocked called (a call counts its arrays' references).
    others = fn_y.size > 0 or moves.shape[0] > 0
    capped = False  # a cone that blocks the rest of a class (_caps)
    for j in range(nc):
        capped |= _blocks_the_rest(cones, ws, j)
    for x in range(n):
        if ws[ws[wedges.HEADS] + x]:
            merge_due(ws, bits, x)
        # P-positions old enough for each cone's structure enter it.
        for j in range(nc):
            wedge = field(ws, j, KIND) != 0
            xo = x - (field(ws, j, ENTRY) if wedge else delay[j])
            if xo < 0:
                continue
            for idx in range(-1, _nforced(fp_start, xo, forced_cols)):
                yo = col[xo] if idx < 0 else fp_y[fp_start[xo] + idx]
                if yo < 0:
                    continue
                if wedge:
                    insert(ws, bits, j, x, xo, yo)
                else:
                    conetrees.enter(
                        cones, j, n, shift, tbase, tsize, tv, tu, bits, xo, yo
                    )
        limit = n
        if x < forced_cols and fp_start[x] < fp_start[x + 1]:
            limit = min(n, fp_y[fp_start[x]])
        best = limit
        start = 0
        searching = True
        if sym:  # a game that is its own mirror (no forced cells)
            if mirror[x] >= 0:  # (mirror[x], x) is P, so (x, mirror[x]) is
                best = mirror[x]
                searching = False
            start = x  # else no P-position lies below the diagonal
        if searching:
            if capped:
                _caps(cones, ws, tbase, tsize, tv, x, big_m, caps)
            base = start if sym else _least(low, big_m)
            nd = 0  # residues waiting
            q = _mod(base, big_m) - 1
            for d in range(big_m):
                yq = base + d
                if yq >= best:
                    break
                q = q + 1 if q + 1 < big_m else 0  # yq mod M
                bound = best
                if capped:
                    bound = min(best, caps[q])
                    if yq >= bound:
                        continue  # a cone blocks the rest of its rows
                y = low[q]  # yq itself, or at least M rows up
                if y == yq or y < start:
                    y = _find(rows, 0, yq, n, None)
                    low[q] = y
                    if y == yq:
                        found = _visit(
                            x, q, y, bound, n, big_m, cones, delay, shift, tbase,
                            tsize, tv, tu, ws, bits, rays, used, lbase, moves, col,
                            fp_start, fp_y, fn_start, fn_y, rows, stats, others,
                        )  # fmt: skip
                        if found < bound:  # else none below it
                            best = found
                        continue
                dq[nd] = q
                dkey[nd] = y
                nd += 1
            while nd:
                i = -1  # the waiting residue of least row, below best
                least = best
                for k in range(nd):
                    if dkey[k] < least:
                        least = dkey[k]
                        i = k
                if i < 0:
                    break
                q = dq[i]
                y = _find(rows, 0, least, n, None)
                low[q] = y
                if y != least and y < best:
                    dkey[i] = y  # its least free row is higher: pick again
                    continue
                nd -= 1
                dq[i] = dq[nd]
                dkey[i] = dkey[nd]
                bound = min(best, caps[q]) if capped else best
                found = _visit(
                    x, q, y, bound, n, big_m, cones, delay, shift, tbase, tsize,
                    tv, tu, ws, bits, rays, used, lbase, moves, col, fp_start,
                    fp_y, fn_start, fn_y, rows, stats, others,
                )  # fmt: skip
                if found < bound:
                    best = found
        col[x] = best if best < limit else -1
        if sym and x < best < limit:
            mirror[best] = x
        for idx in range(-1, _nforced(fp_start, x, forced_cols)):
            yo = col[x] if idx < 0 else fp_y[fp_start[x] + idx]
            if yo < 0:
                continue
            rows[yo] = big_m
            _use_lines(x, yo, rays, used, lbase, n, big_m)


@njit(cache=True, inline="always")
def _visit(
    x, r, y, best, n, big_m, cones, delay, shift, tbase, tsize, tv, tu, ws,
    bits, rays, used, lbase, moves, col, fp_start, fp_y, fn_start, fn_y, rows,
    stats, others,
):  # fmt: skip
    """The lowest free row of residue r mod M in column x from row y, if
    below ``best`` (else ``best``): the rays, then each cone in turn, jump
    past their runs of blocked rows of the residue."""
    nc = cones.shape[0]
    forced_cols = fp_start.size - 1
    while True:
        stats[0] += 1
        y = _find(rows, 0, y, n, None)
        if y >= best:
            break
        # First the extra rays: a find passes each one's run of
        # used lines (which the cones would block row by row).
        # (of y's class: their lines are linked M rows apart)
        nxt = y
        if rays.shape[0]:
            nxt = _rays_free(x, y, rays, used, lbase, n, big_m)
        # Then the cones, each asked at the row of y's class that the
        # others leave, until all of them in turn leave it: a cone
        # that moves it is asked again at once (its runs often chain),
        # and a row find and a ray find between cones would cost a
        # third of the time (a row taken meanwhile is skipped by the
        # next find). They are asked after a ray's jump too: skipped
        # then, a cone that blocks the rest of the class (a plain
        # cone without an upper line) was asked only where the rays
        # left y, after walking the ray's runs up to n.
        quiet = 0  # cones asked in turn, unmoved
        j = 0
        while quiet < nc and nxt < best:
            stats[0] += 1
            # The last row cone j blocks from (x, nxt) on in its
            # class (-1: none; INF: the rest of the column).
            last = _cone_last(
                cones, j, delay, shift, tbase, tsize, tv, tu, ws, bits,
                col, fp_start, fp_y, n, x, nxt,
            )  # fmt: skip
            if last >= nxt:
                nxt = last + 1
                nxt += _mod(r - nxt, big_m)
                quiet = 0
            else:
                quiet += 1
                j = j + 1 if j + 1 < nc else 0
        if nxt == y:
            if others and _blocked(
                x, y, moves, col, fp_start, fp_y, fn_start, fn_y, forced_cols
            ):
                nxt = y + 1
            else:
                best = y
                break
        if nxt >= best:
            break
        y = nxt + _mod(r - nxt, big_m)
    return best


@njit(cache=True, inline="always")
def _blocks_the_rest(cones, ws, j):
    """Does cone j block each class from one row on, kept as that row's
    least key (a plain cone without an upper line, or a mirrored one with
    s1 = 0 and none; :func:`_caps`)?"""
    return (
        field(ws, j, KIND) == 0
        and cones[j, 4] == 0
        and (cones[j, 6] == 0 or cones[j, 0] == 0)
    )


@njit(cache=True, _nrt=False)
def _caps(cones, ws, tbase, tsize, tv, x, big_m, caps):
    """caps[q]: the row of column x from which a cone blocks every row of
    residue q mod M, for good in that column (INF: none). A plain cone
    without an upper line blocks its class from its least u' on (u' + s1 x
    + t1), a mirrored one with s1 = 0 and none from its least y' + 1 (its
    structure is that least value, :func:`catalog.compute.conetrees.last`;
    the younger P-positions only block more). A residue whose first row is
    there is not searched, and a search stops there: the columns whose
    P-position lies past n walked every class up to n (the cones 1..3 mod 12
    and 2..∞ mod 8 beside the diagonal: 33.5 steps a column, 8.5 now).
    Class c of a cone of mod m holds the residues q ≡ c + x (mod m)."""
    for q in range(big_m):
        caps[q] = INF
    for j in range(cones.shape[0]):
        if not _blocks_the_rest(cones, ws, j):
            continue
        s1, t1, _s2, _t2, _hi, m, mirror = _row(cones, j)
        q0 = _mod(x, m)  # the first residue of class 0
        for c in range(m):
            v = tv[tbase[j] + c * (tsize[j] + 1)]
            if v < INF:
                cap = v + 1 if mirror else v + s1 * x + t1
                for q in range(q0, big_m, m):
                    caps[q] = min(caps[q], cap)
            q0 = q0 + 1 if q0 + 1 < m else 0


@njit(cache=True, inline="always")
def _least(low, big_m):
    """The least of low[0:M]."""
    least = low[0]
    for q in range(1, big_m):
        least = min(least, low[q])
    return least


@njit(cache=True, inline="always")
def _cone_last(
    cones, j, delay, shift, tbase, tsize, tv, tu, ws, bits, col, fp_start, fp_y,
    n, x, y,
):  # fmt: skip
    """The last row of y's class that cone j blocks from (x, y) on (-1:
    none; INF: the rest of the column): its structure, then the P-positions
    too young for it."""
    if field(ws, j, KIND):  # a wedge's components
        last = last_blocked(ws, bits, j, x, y)
    else:
        last = conetrees.last(cones, j, n, shift, tbase, tsize, tv, tu, bits, x, y)
    if last < INF:
        last = max(
            last,
            _young_last(cones, j, delay, col, fp_start, fp_y, fp_start.size - 1, x, y),
        )
    return last


@njit(cache=True, inline="always")
def _young_last(cones, j, delay, col, fp_start, fp_y, forced_cols, x, y):
    """The last row of column x that a P-position too young for cone j's
    structure (its latest delay - 1 columns) blocks from (x, y) on, or -1."""
    s1, t1, s2, t2, hi, m, mirror = _row(cones, j)
    last = -1
    for xo in range(max(0, x - delay[j] + 1), x):
        for idx in range(-1, _nforced(fp_start, xo, forced_cols)):
            yo = col[xo] if idx < 0 else fp_y[fp_start[xo] + idx]
            if yo >= 0:
                end = _last_blocked(s1, t1, s2, t2, hi, m, mirror, x, y, xo, yo)
                if end > last:
                    last = end
    return last


def _trees(
    n: int,
    cones: np.ndarray,
    kc: np.ndarray,
    climb: bool = False,
    entries: int | None = None,
    components: bool = False,
) -> tuple[Any, ...]:
    """Each cone's delay, u' shift and trees (flat, per class), then the wedges'
    components (:mod:`catalog.compute.wedges`) and the bitsets (the wedges',
    then the trees' records); a cone keeps trees instead where its components
    do not pay (:func:`_components_pay`, unless ``components``), and every
    cone does when components would pass the budget and trees would not
    (trees take 16 bytes a key, components a bit a key divided by g, half
    a word a bucket of about a P-position's keys and 48 bytes an entry).
    A tree is bucketed
    (:mod:`catalog.compute.conetrees`; the pools hold ``entries`` P-positions,
    n plus the forced ones) where that takes fewer words: a class's tree spans
    (s + 1) n positions for about n / m entries, and the smaller tables were
    measured as fast or faster (at 10^6 beside Wythoff's diagonal, the wedge
    3..5 mod 8 0.9 s instead of 1.7, the mirrored cone 2..3 1.7 s instead of
    2.1; alone, the mirrored cone 2..3 mod 8 0.08 s and 61 MB instead of 0.12 s
    and 488). With ``climb`` (for :mod:`catalog.compute.wedgescan`) a band gets
    no lines of its own: the climb's settled rows hold them."""
    rows = cones.tolist()
    entries = n if entries is None else entries
    need = 0
    wanted = [
        wedges.shear(row)
        if components or _components_pay(n, cones[j : j + 1], climb, entries)
        else 0
        for j, row in enumerate(rows)
    ]
    for kinds in (wanted, [0] * len(rows)):
        parts = wedges.nbytes(n, cones, kinds, entries)
        logs = _bucket_logs(n, rows, kinds, climb, entries, TREE_BUDGET - parts)
        need = _tree_bytes(n, cones, kinds, climb, logs, entries) + parts
        if need <= TREE_BUDGET:
            break
    if need > TREE_BUDGET:
        raise ValueError(
            f"the cones' trees need {need} bytes (over {TREE_BUDGET}): "
            "use the dense engine or a smaller n"
        )
    delay = np.ones(len(cones), dtype=np.int64)
    shift = np.zeros(len(cones), dtype=np.int64)
    tsize = np.zeros(len(cones), dtype=np.int64)
    tbase = np.zeros(len(cones), dtype=np.int64)
    total = 0
    for j, (s1, t1, _s2, t2, hi, _m, mirror) in enumerate(rows):
        if not mirror:
            delay[j] = kc[j]
        elif hi:
            delay[j] = max(1, t2 + 1)
        elif s1 == 0:  # from then on every P-position below blocks
            delay[j] = max(1, t1)
        shift[j] = s1 * n
        size = _tree_size(n, rows[j], kinds[j], climb)
        tsize[j] = 2 * _buckets(size, logs[j]) if logs[j] else size
        tbase[j] = total
        total += _tree_words(n, rows[j], kinds[j], climb, logs[j], entries)
    # zeros, so that a band's lines (0: free) are touched only where used:
    # filled, the band 3 mod 16's 512 MB at 10^6 took longer than its sweep
    tv = np.zeros(total, dtype=np.int64)
    tu = np.zeros(total, dtype=np.int64)
    for j, row in enumerate(rows):
        band = not kinds[j] and conetrees.is_band_row(row)
        if not band:  # empty trees (and the unused words of components)
            words = _tree_words(n, row, kinds[j], climb, logs[j], entries)
            tv[tbase[j] : tbase[j] + words] = NEG
        if kinds[j]:
            continue
        if not row[4] and (not row[6] or row[0] == 0):
            # the least u' (plain) or y' (mirrored) of each class
            tv[tbase[j] : tbase[j] + row[5]] = INF
        elif logs[j]:  # each class's k, in its tree's unused slot 0
            tu[tbase[j] : tbase[j] + row[5] * (tsize[j] + 1) : tsize[j] + 1] = logs[j]
    ws, bits = wedges.layout(n, cones, kc, kinds, entries)
    # each tree's records, a bitset a class after the wedges' words
    # (its level 0's offset in the class's tv[base], unused otherwise)
    at = bits.size
    for j, row in enumerate(rows):
        if not _keeps_tree(row, kinds[j]):
            continue
        count = tsize[j] // 2 if logs[j] else tsize[j]
        for c in range(row[5]):
            tv[tbase[j] + c * (tsize[j] + 1)] = at
            at += _stair_words(count)
    if at > bits.size:
        bits = np.concatenate([bits, np.zeros(at - bits.size, dtype=np.uint64)])
    return delay, shift, tbase, tsize, tv, tu, ws, bits


#: How many times a cone's trees' bytes its components may take, their
#: key space counted at half a word a key: they answer a class's run of
#: blocked rows in one query where a tree answers one interval a query (the
#: wedge 3..5 mod 8 beside Wythoff's diagonal 0.25 s at 10^6 in 70 MiB
#: against 0.41 s in trees of 61 MiB), but over a far wider key space they
#: cost more than the queries save (the steep wedge 63..64, 64 n keys a
#: class: 0.37 s at 10^6 against 0.05 s in trees; 0.36 s still with the
#: bucketed index of :func:`catalog.compute.wedges.layout`, so its bytes
#: were not what cost).
COMPONENTS_OVER_TREES = 3


def _components_pay(n: int, cone: np.ndarray, climb: bool, entries: int) -> bool:
    """Should the cone (one row) keep components rather than trees: does it
    have a kind, and do they take at most COMPONENTS_OVER_TREES times the
    bytes of its trees, half a word a key of their key space counted
    beside their own bytes?"""
    row = cone[0].tolist()
    kind = wedges.shear(row)
    if not kind:
        return False
    parts = wedges.nbytes(n, cone, [kind], entries) - 8 * n
    parts += 4 * wedges.keys(n, row, kind)
    logs = _bucket_logs(n, [row], [0], climb, entries, TREE_BUDGET)
    trees = _tree_bytes(n, cone, [0], climb, logs, entries)
    return parts <= COMPONENTS_OVER_TREES * trees


def _stair_words(count: int) -> int:
    """Words of a class's bitset of records over ``count`` keys."""
    return bitsets.layout(count)[1]


def _tree_size(n: int, row: list[int], kind: int, climb: bool = False) -> int:
    """Positions of cone ``row``'s tree in each class."""
    s1, _t1, s2, _t2, hi, m, mirror = row
    if kind:
        return 0  # kept as components instead
    if conetrees.is_band_row(row):
        if climb:
            return 0  # in the climb's settled rows
        return (s1 + 1) * n + m  # lines w = y - s1 x, + a chain's step
    if not hi and (not mirror or s1 == 0):
        return 0  # one value a class: the least u' (plain) or y' (mirrored)
    if not hi:
        return n  # over y'
    if mirror:
        return (s2 + 1) * n  # over n - 1 - v'
    return (s1 + 1) * n  # over u' + s1 n


def _keeps_tree(row: list[int], kind: int) -> bool:
    """Does cone ``row`` (of this kind) keep prefix-maximum trees?"""
    s1, _t1, s2, _t2, hi, _m, mirror = row
    if kind or conetrees.is_band_row(row):
        return False  # components, or a band's lines
    return bool(hi or (mirror and s1))


def _buckets(size: int, log: int) -> int:
    """Buckets of 2^log positions a class for ``size`` positions."""
    return max(1, -(-size >> log))


def _tree_words(
    n: int, row: list[int], kind: int, climb: bool, log: int, entries: int
) -> int:
    """Words of ``tv`` (and of ``tu``) for cone ``row``: m (size + 1) for
    plain trees, bucketed m (2 nb + 1) plus a pool of 2 entries + 1; a
    band's size + 1 lines a class in half-words
    (:func:`catalog.compute.conetrees.band_words`)."""
    m = row[5]
    size = _tree_size(n, row, kind, climb)
    if size and not kind and conetrees.is_band_row(row):
        return m * conetrees.band_words(size)
    if not log:
        return m * (size + 1)
    return m * (2 * _buckets(size, log) + 1) + 2 * entries + 1


def _bit_bytes(n: int, row: list[int], kind: int, climb: bool, log: int) -> int:
    """Bytes of cone ``row``'s bitsets of records (none but for trees)."""
    if not _keeps_tree(row, kind):
        return 0
    size = _tree_size(n, row, kind, climb)
    return 8 * row[5] * _stair_words(_buckets(size, log) if log else size)


def _bucket_logs(
    n: int,
    rows: list[list[int]],
    kinds: list[int],
    climb: bool,
    entries: int,
    budget: int,
) -> list[int]:
    """Each cone's k (buckets of 2^k positions; 0: the plain tree): B the
    largest power of two up to m size / entries, so that a bucket holds
    about one entry (at most one on average: a class gets about entries / m
    of them), where that takes fewer words than the plain tree (a small
    tree is no bigger than the pool). While they pass ``budget``, each
    cone's buckets grow to the next k that takes fewer words."""

    def words(j: int, log: int) -> int:
        return _tree_words(n, rows[j], kinds[j], climb, log, entries)

    def fewer(j: int, log: int) -> int:
        """The least k > ``log`` with fewer words (0 if none)."""
        size = _tree_size(n, rows[j], kinds[j], climb)
        for k in range(log + 1, 64):
            if words(j, k) < words(j, log):
                return k
            if _buckets(size, k) == 1:
                break
        return 0

    logs = [0] * len(rows)
    for j, (row, kind) in enumerate(zip(rows, kinds, strict=True)):
        ratio = row[5] * _tree_size(n, row, kind, climb) // max(1, entries)
        if _keeps_tree(row, kind) and ratio > 1:
            k = ratio.bit_length() - 1
            logs[j] = k if words(j, k) < words(j, 0) else 0
    while 16 * sum(words(j, g) for j, g in enumerate(logs)) > budget:
        grow = [
            fewer(j, g) if _keeps_tree(rows[j], kinds[j]) else 0
            for j, g in enumerate(logs)
        ]
        if not any(grow):
            break
        logs = [k or g for k, g in zip(grow, logs, strict=True)]
    return logs


def _tree_bytes(
    n: int,
    cones: np.ndarray,
    kinds: list[int],
    climb: bool = False,
    logs: list[int] | None = None,
    entries: int | None = None,
) -> int:
    """Bytes of the trees (two int64 arrays), plain or bucketed by ``logs``
    (k a cone, 0 plain; pools of ``entries``, default n): a cone takes
    16 m (size + 1) plain, 16 (m (2 nb + 1) + 2 entries + 1) bucketed
    (:func:`_tree_words`)."""
    rows = cones.tolist()
    logs = [0] * len(rows) if logs is None else logs
    entries = n if entries is None else entries
    return sum(
        16 * _tree_words(n, r, k, climb, g, entries) + _bit_bytes(n, r, k, climb, g)
        for r, k, g in zip(rows, kinds, logs, strict=True)
    )


def cone_sweep_p_positions(
    n: int,
    cones: Any,
    rays: Any = ((1, 0), (0, 1)),
    moves: Any = None,
    forced_p: Any = None,
    forced_n: Any = None,
    stats: np.ndarray | None = None,
    components: bool | None = None,
    transpose: bool | None = None,
) -> np.ndarray:
    """Every P-position with x, y < n of a cone game with both Nim rays.

    Parameters
    ----------
    n : int
        The box side (>= 0).
    cones : array_like of shape (k, 7)
        Rows [s1, t1, s2, t2, has_hi, mod, mirror], as
        :func:`catalog.compute.dense.dense_p_positions` takes them.
    rays : array_like of shape (k, 2)
        Must contain (1, 0) and (0, 1); any others are allowed.
    moves : array_like of shape (k, 2)
        Single moves.
    forced_p, forced_n : array_like of shape (k, 2)
        Cells forced P or N.
    stats : numpy.ndarray, optional
        One int64 counter, increased by the steps of the columns' searches
        (:func:`catalog.compute.cost._cone_work` probes it).
    components : bool, optional
        Keep components for every cone that has a kind (True), or only
        where they pay by memory (False); by default a probe decides
        (:func:`_probe_components`). The P-positions are the same.
    transpose : bool, optional
        Sweep the transposed game (piles swapped: rays, moves and forced
        cells mirrored, plain cones and mirrored ones exchanged) and mirror
        its P-positions back (True), or the game as given (False); by
        default a probe decides (:func:`_probe_transpose`). The P-positions
        are the same.

    Returns
    -------
    numpy.ndarray
        (k, 2) int64 sorted by x then y; the same as
        :func:`~catalog.compute.dense.dense_p_positions` (block 0).

    Raises
    ------
    ValueError
        Without both Nim rays, on a malformed rule, or when the trees would
        pass :data:`TREE_BUDGET` even bucketed.

    Notes
    -----
    Time per column: for each class of rows mod M (M = lcm of the mods),
    a union-find find and, per cone and jump, a query: O(1) for a band or a
    plain cone without an upper line, a predecessor search in a three-level
    bitset for a wedge (its inserts and merges amortised O(1) a P-position),
    a predecessor search in its records for the other cones (each entry
    amortised O(1) searches), and a look at the
    cone's delay columns (kc - 1, or t2 for a mirrored cone with an upper
    bound); each extra-ray, move or forced-N hit costs one more step.
    When M > 1 and every cone's blocked rows grow under one shear σ
    (wedges, bands, cones without an upper line, mirrored ones of s1 <= 1;
    :func:`catalog.compute.wedgescan.common_shear`), one climb a column over
    all classes (:mod:`catalog.compute.wedgescan`): a few finds and queries
    a column whatever M, 8 (σ + 1) n bytes more, and no band lines.
    Memory: 8 (n + M) bytes of rows, 8 n of columns, per wedge a bit a
    key of (s + 1) n / g in each of its m classes (s = s1 plain, s2
    mirrored, n / g keys without an upper line), 4 bytes a bucket of about
    as many keys as a P-position has (about 4 n bytes) and 48 bytes an
    entry (touched pages only), per other cone 16 m ((s1 + 1) n) bytes
    of trees with an upper bound (16 m n mirrored without one and s1 >= 1,
    16 m plain or s1 = 0 without one), per extra ray (a, b) = g (p, q)
    4 g (p + q) n bytes of lines (touched pages only). Trees are bucketed
    where that is smaller (:mod:`catalog.compute.conetrees`): 16 (m (2 nb
    + 1) + 2 (n + f) + 1) bytes a cone, nb = ⌈size / 2^k⌉ buckets a class
    of the size above, f the forced P-positions; with 2^k about m (s + 1),
    about 64 n bytes.

    Examples
    --------
    >>> cone_sweep_p_positions(12, [[1, -1, 1, 1, 1, 1, 0]]).tolist()
    [[0, 0], [1, 3], [2, 6], [3, 1], [4, 10], [6, 2], [10, 4]]
    """
    r = rules(rays, moves, _as_bands(cones))
    nim = {(1, 0), (0, 1)}
    if not nim <= {tuple(v) for v in r.rays.tolist()}:
        raise ValueError("the cone sweep needs both rays (1, 0) and (0, 1)")
    if n <= 0:
        return np.zeros((0, 2), dtype=np.int64)
    game = (cones, rays, moves, forced_p, forced_n)
    chosen = transpose is None and _probe_transpose(n, game)
    if transpose or chosen:
        try:
            out = cone_sweep_p_positions(
                n, *_transposed(game), stats=stats, components=components,
                transpose=False,
            )[:, ::-1]  # fmt: skip
        except ValueError:  # past the budget, as the game may not be
            if not chosen:
                raise
        else:
            return np.ascontiguousarray(out[np.lexsort((out[:, 1], out[:, 0]))])
    extra = np.array(
        [(a, b) for a, b in r.rays.tolist() if a and b], dtype=np.int64
    ).reshape(-1, 2)
    g = np.gcd(extra[:, 0], extra[:, 1])
    rays3 = np.column_stack([extra[:, 0] // g, extra[:, 1] // g, g])
    sizes = (rays3[:, 0] + rays3[:, 1]) * n * rays3[:, 2] + rays3[:, 2]
    lbase = (np.cumsum(sizes) - sizes).astype(np.int64)
    # each ray's lines, a "next free line" union-find (conecells._rays_free)
    # of distances, each less than the table
    lines = int(sizes.sum())
    used = np.zeros(lines, dtype=np.int32 if lines < 2**31 else np.int64)
    fp = _cells(forced_p, n)
    fn = _cells(forced_n, n)
    columns = 1 + max(int(fp[:, 0].max(initial=-1)), int(fn[:, 0].max(initial=-1)))
    fp_start, fp_y = _csr(tuple(map(tuple, fp.tolist())), columns)
    fn_start, fn_y = _csr(tuple(map(tuple, fn.tolist())), columns)
    big_m = lcm(1, *(int(m) for m in r.cones[:, 5]))
    sigma = wedgescan.common_shear(big_m, r.cones)
    if components is None:
        components = _probe_components(
            n, cones, rays, moves, forced_p, forced_n, r, sigma >= 0, n + len(fp)
        )
    trees = None
    if sigma >= 0:  # the climb, if its settled rows fit beside the trees
        try:
            trees = _trees(
                n, r.cones, r.kc, climb=True, entries=n + len(fp), components=components
            )
        except ValueError:  # bands' lines would fit nowhere else either
            sigma = -1
        else:
            room = TREE_BUDGET - sum(a.nbytes for a in trees)
            if 8 * ((sigma + 1) * n + 2) > room:
                sigma, trees = -1, None
    if trees is None:
        trees = _trees(n, r.cones, r.kc, entries=n + len(fp), components=components)
    counts = np.zeros(1, dtype=np.int64) if stats is None else stats
    sym = not len(fp) and not len(fn) and _symmetric(r, cones)
    col = np.full(n, -1, dtype=np.int64)
    rows = np.zeros(n + big_m + 1, dtype=np.int64)  # distances, 0 = free
    if sigma >= 0:  # every class at once
        wedgescan.scan(
            n, sigma, r.cones, *trees, rays3, used, lbase, r.moves,
            fp_start, fp_y, fn_start, fn_y, col, rows,
            np.zeros((sigma + 1) * n + 2, dtype=np.int64), counts,
            sym, np.full(n if sym else 0, -1, dtype=np.int64),
        )  # fmt: skip
    else:
        _sweep(
            n, big_m, r.cones, *trees, rays3, used, lbase, r.moves,
            fp_start, fp_y, fn_start, fn_y, col, rows,
            np.arange(big_m, dtype=np.int64), counts, sym,
            np.full(n if sym else 0, -1, dtype=np.int64),
            np.zeros(big_m, dtype=np.int64), np.zeros(big_m, dtype=np.int64),
            np.zeros(big_m, dtype=np.int64),
        )  # fmt: skip
    xs = np.flatnonzero(col >= 0)
    out = np.column_stack([xs, col[xs]]).astype(np.int64)  # sorted by x
    if len(fp):  # a natural P-position lies below its column's forced ones
        out = np.concatenate([out, np.unique(fp, axis=0)])
        out = out[np.lexsort((out[:, 1], out[:, 0]))]
    return out


#: Columns of the probe of :func:`_probe_components`.
PROBE = 4096


def _probe_components(
    n: int,
    cones: Any,
    rays: Any,
    moves: Any,
    forced_p: Any,
    forced_n: Any,
    r: Any,
    climb: bool,
    entries: int,
) -> bool:
    """Should every cone with a kind keep components, also those whose
    components take more than COMPONENTS_OVER_TREES times their trees'
    bytes? Where that would change the choice (and n is over 4 probes),
    the sweep is run PROBE columns wide both ways: components when they
    take under 0.8 times the trees' steps. Memory alone cannot say: the
    mirrored cone 2..5 mod 16 beside Wythoff's diagonal takes 5.4 times its
    trees' bytes in components and 57 steps a column against 333 in trees
    at 10^5 (0.18 s against 1.07), the steep wedge 63..64 4.7 times and 2
    steps a column either way (0.37 s against 0.05 at 10^6)."""
    if n <= 4 * PROBE:
        return False
    if all(
        not wedges.shear(row) or _components_pay(n, r.cones[j : j + 1], climb, entries)
        for j, row in enumerate(r.cones.tolist())
    ):
        return False
    steps = []
    for both in (False, True):
        stats = np.zeros(1, dtype=np.int64)
        cone_sweep_p_positions(
            PROBE, cones, rays, moves, forced_p, forced_n, stats, components=both
        )
        steps.append(int(stats[0]))
    return steps[1] < 0.8 * steps[0]


def _transposed(game: Game) -> Game:
    """The game (cones, rays, moves, forced_p, forced_n) with its piles
    swapped: each pair (a, b) becomes (b, a), each plain cone a mirrored
    one and each mirrored one plain. Its P-positions are the game's,
    mirrored."""
    cones, rays, moves, forced_p, forced_n = game
    arr = np.asarray([] if cones is None else cones, dtype=np.int64).reshape(-1, 7)
    arr = arr.copy()
    arr[:, 6] = 1 - arr[:, 6]

    def flip(pairs: Any) -> np.ndarray:
        return np.asarray([] if pairs is None else pairs, dtype=np.int64).reshape(
            -1, 2
        )[:, ::-1]

    return arr, flip(rays), flip(moves), flip(forced_p), flip(forced_n)


def _own_transpose(game: Game) -> bool:
    """Is the game (cones, rays, moves, forced_p, forced_n) its own
    transpose, rule for rule?"""

    def rows(arrays: tuple[Any, ...]) -> list[set[tuple[int, ...]]]:
        return [
            {tuple(v) for v in np.asarray([] if a is None else a, dtype=np.int64)
             .reshape(-1, 7 if i == 0 else 2).tolist()}
            for i, a in enumerate(arrays)
        ]  # fmt: skip

    return rows(game) == rows(_transposed(game))


def _probe_transpose(n: int, game: Game) -> bool:
    """Should the sweep run on the transposed game (:func:`_transposed`)?
    For n over 4 probes and a game that is not its own transpose, the sweep
    is run PROBE columns wide both ways: transposed when it takes under 0.8
    times the steps. A mirrored cone with s1 >= 2 merges its runs only where
    their real ends meet (:func:`catalog.compute.wedges.gap`), a plain one
    by residues: the mirrored cone 2..5 mod 16 beside Wythoff's diagonal
    takes 57 steps a column, its transpose 18 (1.6 s against 0.5 at 10^6)."""
    if n <= 4 * PROBE or _own_transpose(game):
        return False
    flipped = _transposed(game)
    steps = []
    for args in (game, flipped):
        stats = np.zeros(1, dtype=np.int64)
        cone_sweep_p_positions(PROBE, *args, stats=stats, transpose=False)
        steps.append(int(stats[0]))
    return steps[1] < 0.8 * steps[0]


def _symmetric(r: Any, cones: Any) -> bool:
    """Is the rule set its own mirror (rays, moves, and the cones as given,
    a mirrored row beside each plain one)? Then so are the P-positions, and
    a column's P-position below the diagonal is the mirror of one found."""
    given = np.asarray([] if cones is None else cones, dtype=np.int64)
    rows = {tuple(c) for c in given.reshape(-1, 7).tolist()}
    flipped = {(*c[:6], 1 - c[6]) for c in rows}
    return mirrored(r.rays) and mirrored(r.moves) and rows == flipped


def _cells(cells: Any, n: int) -> np.ndarray:
    """Forced cells inside the box, (k, 2) int64."""
    arr = np.asarray([] if cells is None else cells, dtype=np.int64).reshape(-1, 2)
    if (arr < 0).any():
        raise ValueError("forced cells must have non-negative coordinates")
    return arr[(arr[:, 0] < n) & (arr[:, 1] < n)]


def _as_bands(cones: Any) -> np.ndarray:
    """The cones, a mirrored band of slope 1 ([1, t1, 1, t2, 1, m, 1]: the
    steps (dx, dy) with dy + t1 <= dx <= dy + t2) written as the plain band
    [1, -t2, 1, -t1, 1, m, 0] it equals, which the sweep jumps over faster."""
    arr = np.asarray([] if cones is None else cones, dtype=np.int64).reshape(-1, 7)
    arr = arr.copy()
    band = (arr[:, 0] == 1) & (arr[:, 2] == 1) & (arr[:, 4] == 1) & (arr[:, 6] == 1)
    arr[band, 1], arr[band, 3] = -arr[band, 3], -arr[band, 1]
    arr[band, 6] = 0
    return arr
