"""The compiled sparse sweep of blocking games with both Nim rays.

A position is P iff it is forced P, or it is not forced N and at most b of
its options are P (``"block": b``, :mod:`catalog.kinds.block`). With the rays
(1, 0) and (0, 1) a column holds at most b + 1 P-positions besides its forced
ones (the next cell above b + 1 of them has b + 1 P options below it), and
so does a row: the P-positions are O((b + 1) n), and the sweep looks only for
them. Column x is scanned upwards from row 0; the scan ends once b + 1
P-positions lie below it (every cell above is N) or at row n.

A cell's P options are counted once each, rule by rule, since no two rules
reach the same position: the column below it (the P-positions found so far
in this scan), its row (a counter a row), each other ray (a, b) = g (p, q)
(a counter a line of direction (p, q) and class of x // p mod g: the cells
the ray reaches from (x, y) are exactly the cells of that line and class to
its left), and each single move (a look-up in column x - a). Only parallel
rays that are not multiples of each other (say (2, 2) and (3, 3), which both
reach the cell 6 steps down the diagonal) share positions: a direction
holding two or more rays keeps its P-positions in a list a line, and the
count walks the list (at most (b + 1) g + forced entries for the least g).
:func:`catalog.compute.ruleset.rules` has already dropped every ray that is
a multiple of another, and every single move on a ray, so nothing else can
coincide.

Symmetric games. When the rules and the forced cells are their own mirror
(Blocking Wythoff and Maharaja Nim), so are the P-positions: column x's
P-positions below the diagonal are the mirrors of row x's so far, which
each row keeps in a list, and the scan starts at the diagonal with them
counted.

Skipping. Counters only grow, so a row whose count passes a level ``v``
never comes back under it. For each level v = 0..b (:func:`levels`) the rows
and each ray's lines are a three-level bitset (:mod:`catalog.compute.bitsets`)
of those holding at most v; a ray's lines are keyed so that the lines one
column meets are consecutive keys (:func:`_key`). With c P-positions below
the scan, a cell can be P only if its row and line counts sum to at most
the room r = b - c, so the scan runs one search for each way of spreading r
over the row and the rays (:func:`searches`) and takes the lowest cell any
finds; each search's answer is kept until the scan passes it. A search ANDs
the row level's word with each ray level's word shifted to the column, 64
rows at a time, and passes a stretch where the rows or a ray have no key
with that bitset's successor (:func:`_leap`). A cell found is counted
exactly and is P unless a single move, a forced N cell or a shared
direction (whose rays are searched at level b) says otherwise. Past
:data:`MAX_SEARCHES` searches, one search a room at level b is run and every
cell it finds is counted (correct, slower).

Why bitsets. The sweep kept a "next line at most v" union-find a level
until 2026-11 (as :func:`catalog.compute.kernel._find`). A leapfrog between
union-finds costs a jump each time the acceptable rows and lines alternate,
and with b = 1 they alternate cell by cell over a stretch of about n rows in
half the columns (rows holding one P-position of the (x, 2x + 1) kind
beside diagonals holding two): n/27 jumps a column for Blocking Wythoff Nim,
15 s at n = 10^5. A word of the AND passes 64 such cells in a few
instructions, and the bitsets (one bit a line and level, about 2 MB at 10^6
for b = 4) stay in the cache where the union-finds (60 MB) did not.

Work per column: O(S (R + 1) + W + V (R + M + L)) with S the searches
started ((b + 1)(b + 2) / 2 with one other ray), R rays, M single moves, W
the words the searches read, V the cells counted exactly (b + 1
P-positions plus the N cells of single moves, forced N cells and shared
directions) and L the list walks of shared directions. W is not bounded by
the game's rules: it is the stretch, in words, over which acceptable rows
and lines alternate without meeting. Measured (``stats``) at n = 10^6: with
b = 2..4, W stays at 3.5 to 8 a column for Wythoff's Nim and Maharaja Nim
at every n; with b = 1 it grows as n/1080 (Wythoff) and n/1900 (Maharaja):
quadratic, at 64 cells a word (:func:`_run` tests 32 words at once).
Memory: per level, a bit a row and a line of each ray (the bitsets), a byte
a row and a line (the counters), 16 bytes a possible position ((b + 1) n +
forced: the positions found and, in a symmetric game, the row lists) and 16
one of the answer; :func:`table_bytes`.

References
----------
.. [1] U. Larsson, "Blocking Wythoff Nim", Electron. J. Combin. 18 (2011)
   P120, arXiv:1010.5816.
.. [2] J. Hu, D. Sleator, J. Tsin, "Wythoff's Nim with Finite Alterations",
   arXiv:2408.02851 (free rows and diagonals, which the searches generalise).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from catalog.compute import bitsets
from catalog.compute.bitsets import bit, clear, low, shifted, successor
from catalog.compute.jit import njit
from catalog.compute.kernel import _contains, _csr
from catalog.compute.ruleset import mirrored, rules

#: Most leapfrog searches a column's scan may start with (:func:`searches`);
#: past it the sweep keeps one level (b) and counts every cell it finds.
MAX_SEARCHES = 256


@njit(cache=True, inline="always")
def _key(idx, stride, per):
    """The bitset key of ray line ``idx``: the lines one column meets are
    ``stride`` apart, so each residue class gets ``per`` keys of its own and
    a column's lines are consecutive keys."""
    return (idx % stride) * per + idx // stride


@njit(cache=True, inline="always")
def _record(
    x, y, k, b, lev, n, rays, per, col0, cbase, cnt, rowcnt, bits, bl,
    dirs, hbase, head, nxt, out_x, out_y, sym, rhead, rnext,
):  # fmt: skip
    """Write the P-position (x, y) as the k-th found; count it in its row
    and on each ray's line (taking it out of the levels it passes) and in
    its shared direction's list; in a symmetric game, list it in its row
    when it lies above the diagonal."""
    out_x[k] = x
    out_y[k] = y
    nl = lev.shape[0]
    v = rowcnt[y]
    if v <= b:
        rowcnt[y] = v + 1
        for lv in range(nl):
            if lev[lv] == v:
                clear(bits, bl[lv, 0], bl[lv, 1], bl[lv, 2], y)
    for i in range(rays.shape[0]):
        stride = rays[i, 0] * rays[i, 2]
        idx = col0[i] + y * stride
        v = cnt[cbase[i] + idx]
        if v <= b:
            cnt[cbase[i] + idx] = v + 1
            for lv in range(nl):
                if lev[lv] == v:
                    o = (1 + i) * nl + lv
                    clear(bits, bl[o, 0], bl[o, 1], bl[o, 2], _key(idx, stride, per[i]))
    if sym and y > x:
        rnext[k] = rhead[y]
        rhead[y] = k
    for d in range(dirs.shape[0]):
        p, q = dirs[d, 0], dirs[d, 1]
        line = hbase[d] + y * p - x * q + q * n
        nxt[k] = head[line]
        head[line] = k


@njit(cache=True, inline="always")
def _leap(y, comps, s, n, nl, colk, bits, bl, stats):
    """The first cell of the column at or above y whose row holds at most
    ``lev[comps[s, 0]]`` P-positions and whose line on ray i at most
    ``lev[comps[s, 1 + i]]`` (n if none). (Rows of ``comps`` are not sliced:
    a view would count references, atomically, on every call.)

    64 rows at a time: the AND of the row level's word and each ray level's
    word, shifted to the column (``colk[i]`` is the key of the line through
    (x, 0)); a set with no key among the 64 is passed with its successor
    instead, so a long empty stretch costs one search."""
    r = comps[s, 0]
    r0 = bl[r, 0]
    nr = colk.shape[0]
    # ray 0's word for rows 64 i.. is bits q0 + i and q0 + i + 1 shifted by sh
    o = nl + comps[s, 1] if nr else 0
    sh = np.uint64(colk[0] & 63) if nr else np.uint64(0)
    q0 = bl[o, 0] + (colk[0] >> 6) if nr else 0
    words = 0
    while y < n:
        i = y >> 6
        w = bits[r0 + i] & ~(bit(y & 63) - np.uint64(1))  # rows from y on
        last = (n - 1) >> 6
        while True:  # word i: rows 64 i .. 64 i + 63
            words += 1
            if w == 0:  # no row of the level among them
                y = successor(bits, r0, bl[r, 1], bl[r, 2], bl[r, 3], (i + 1) << 6)
                break
            if nr:
                line = shifted(bits, q0 + i, sh)
                if line == 0:  # no line of the level among them
                    k = successor(bits, bl[o, 0], bl[o, 1], bl[o, 2], bl[o, 3],
                                  colk[0] + ((i + 1) << 6))  # fmt: skip
                    y = n if k < 0 else k - colk[0]
                    break
                w &= line
            skip = -1
            for j in range(1, nr):
                oj = (1 + j) * nl + comps[s, 1 + j]
                key = colk[j] + (i << 6)
                line = shifted(bits, bl[oj, 0] + (key >> 6), np.uint64(key & 63))
                if line == 0:
                    k = successor(bits, bl[oj, 0], bl[oj, 1], bl[oj, 2], bl[oj, 3],
                                  key + 64)  # fmt: skip
                    skip = n if k < 0 else k - colk[j]
                    break
                w &= line
            if skip >= 0:
                y = skip
                break
            if w != 0:
                stats[1] += words
                return min((i << 6) + low(w), n)
            if i == last:
                y = n
                break
            i += 1
            if nr == 1:  # the words in which nothing happens, in a tight loop
                j = _run(bits, r0, q0, sh, i, last)
                words += j - i
                if j > last:
                    y = n
                    break
                i = j
            w = bits[r0 + i]
        if y < 0:
            break
    stats[1] += words
    return n


#: Words :func:`_run` tests in one block (a loop with no exit, so that the
#: compiler vectorises it: 32 words in about as long as 4 tested one by one).
RUN_BLOCK = 32


@njit(cache=True, _nrt=False)
def _run_block(bits, ur, uq, sh, j):
    """Nonzero iff one of the RUN_BLOCK words from j has an empty row word,
    an empty line word or a cell (:func:`_run`)."""
    one, top = np.uint64(1), np.uint64(63) - sh
    hit = np.uint64(0)
    empty = np.uint64(0)
    for k in range(RUN_BLOCK):
        a = j + np.uint64(k)
        w = bits[ur + a]
        line = (bits[uq + a] >> sh) | ((bits[uq + a + one] << one) << top)
        hit |= w & line
        empty |= np.uint64(w == 0) | np.uint64(line == 0)
    return hit | empty


@njit(cache=True, _nrt=False)
def _run(bits, r0, q0, sh, i, last):
    """The first word j in i..last (last + 1 if none) whose rows (word
    r0 + j), whose one ray's lines (words q0 + j and q0 + j + 1, shifted by
    ``sh``) or whose AND is not all-but-empty: a row or the lines empty, or
    a cell. Kept out of :func:`_leap` so that its few values stay in
    registers, with unsigned indices (no wrapping of negative ones); whole
    blocks first (:func:`_run_block`), then the word in the block."""
    j = np.uint64(i)
    end = np.uint64(last)
    ur, uq = np.uint64(r0), np.uint64(q0)
    one, top = np.uint64(1), np.uint64(63) - sh
    block = np.uint64(RUN_BLOCK)
    while j + block <= end and _run_block(bits, ur, uq, sh, j) == 0:
        j += block
    while j <= end:
        w = bits[ur + j]
        line = (bits[uq + j] >> sh) | ((bits[uq + j + one] << one) << top)
        if w == 0 or line == 0 or w & line:
            return np.int64(j)
        j += one
    return last + 1


@njit(cache=True, _nrt=False)
def _sweep(
    n, b, lev, comps, cstart, parent, rays, per, cbase, cnt, bits, bl,
    solo, dirs, dstart, dgs, hbase, head, nxt,
    moves, fp_start, fp_y, fn_start, fn_y, fcols,
    rowcnt, col_start, out_x, out_y, sym, rhead, rnext, col0, colk, cy, lo, stats,
):  # fmt: skip
    """Label the columns 0..n-1 (the module docstring); returns how many
    P-positions were written to out_x, out_y. ``comps[cstart[r]:cstart[r + 1]]``
    are the searches for room r (:func:`searches`); ``bits`` holds each
    level of the rows and of each ray's lines as a bitset at the offsets
    ``bl`` (:func:`_bitsets`). ``sym``: the game is its own mirror, so a
    column's P-positions below the diagonal are its row's so far (``rhead``,
    ``rnext``: each row's list of them) and its scan starts at the diagonal.
    ``stats``: [cells counted exactly, words read]."""
    nr = rays.shape[0]
    nl = lev.shape[0]
    k = 0
    for x in range(n):
        col_start[x] = k
        for i in range(nr):
            p, q, g = rays[i, 0], rays[i, 1], rays[i, 2]
            col0[i] = q * (n - x) * g + (x // p) % g  # the line of (x, 0)
            colk[i] = _key(col0[i], p * g, per[i])
        fa, fb = 0, 0
        na, nb = 0, 0
        if x < fcols:
            fa, fb = fp_start[x], fp_start[x + 1]
            na, nb = fn_start[x], fn_start[x + 1]
        c = 0
        y = 0
        if sym:  # the mirrors of row x's P-positions, in rising order
            m = 0
            e = rhead[x]
            while e >= 0:
                m += 1
                e = rnext[e]
            e = rhead[x]
            for t in range(m - 1, -1, -1):
                _record(
                    x, out_x[e], k + t, b, lev, n, rays, per, col0, cbase, cnt,
                    rowcnt, bits, bl, dirs, hbase, head, nxt, out_x, out_y, sym,
                    rhead, rnext,
                )  # fmt: skip
                e = rnext[e]
            k += m
            c = m
            y = x
            while fa < fb and fp_y[fa] < x:  # among the mirrors
                fa += 1
        room = -1
        while c <= b and y < n:
            if room != b - c:  # fewer searches once a P-position is below
                for s in range(cstart[b - c], cstart[b - c + 1]):
                    cy[s] = -1
                    lo[s] = 0
                    if room == b - c + 1 and parent[s] >= 0:
                        lo[s] = cy[parent[s]]  # no cell of its parent's below
                room = b - c
            best = n
            for s in range(cstart[room], cstart[room + 1]):
                if cy[s] < y:
                    cy[s] = _leap(max(y, lo[s]), comps, s, n, nl, colk, bits, bl, stats)
                if cy[s] < best:
                    best = cy[s]
            y = best
            while fa < fb and fp_y[fa] < y and c <= b:  # forced P passed over
                _record(
                    x, fp_y[fa], k, b, lev, n, rays, per, col0, cbase, cnt, rowcnt,
                    bits, bl, dirs, hbase, head, nxt, out_x, out_y, sym, rhead, rnext,
                )  # fmt: skip
                k += 1
                fa += 1
                c += 1
            if c > b or y >= n:
                break
            if fa < fb and fp_y[fa] == y:
                _record(
                    x, y, k, b, lev, n, rays, per, col0, cbase, cnt, rowcnt,
                    bits, bl, dirs, hbase, head, nxt, out_x, out_y, sym, rhead, rnext,
                )  # fmt: skip
                k += 1
                fa += 1
                c += 1
                y += 1
                continue
            if na < nb and _contains(fn_y, na, nb, y):
                y += 1
                continue
            stats[0] += 1
            total = c + rowcnt[y]
            for i in range(nr):
                if solo[i]:
                    total += cnt[cbase[i] + col0[i] + y * rays[i, 0] * rays[i, 2]]
            for d in range(dirs.shape[0]):
                if total > b:
                    break
                p, q = dirs[d, 0], dirs[d, 1]
                e = head[hbase[d] + y * p - x * q + q * n]
                while e >= 0:
                    t = (x - out_x[e]) // p
                    for s in range(dstart[d], dstart[d + 1]):
                        if t % dgs[s] == 0:
                            total += 1
                            break
                    e = nxt[e]
            for i in range(moves.shape[0]):
                if total > b:
                    break
                xs, ys = x - moves[i, 0], y - moves[i, 1]
                if xs >= 0 and ys >= 0:
                    if _contains(out_y, col_start[xs], col_start[xs + 1], ys):
                        total += 1
            if total <= b:
                _record(
                    x, y, k, b, lev, n, rays, per, col0, cbase, cnt, rowcnt,
                    bits, bl, dirs, hbase, head, nxt, out_x, out_y, sym, rhead, rnext,
                )  # fmt: skip
                k += 1
                c += 1
            y += 1
        while fa < fb:  # the forced P-positions above the last one found
            _record(
                x, fp_y[fa], k, b, lev, n, rays, per, col0, cbase, cnt, rowcnt,
                bits, bl, dirs, hbase, head, nxt, out_x, out_y, sym, rhead, rnext,
            )  # fmt: skip
            k += 1
            fa += 1
    col_start[n] = k
    return k


class Layout(NamedTuple):
    """The rule set as the sweep takes it, and the sizes of its tables."""

    block: int
    rays: np.ndarray  # (r, 3): p, q, g of each ray other than Nim's
    moves: np.ndarray  # (m, 2)
    dirs: np.ndarray  # (d, 2): the directions holding two rays or more
    dstart: np.ndarray  # (d + 1,): their rays' g, as a CSR over dgs
    dgs: np.ndarray
    rsize: np.ndarray  # (r,): lines (times classes) of each ray
    dlines: np.ndarray  # (d,): lines of each shared direction


def layout(block: int, rays: Any, moves: Any = None) -> Layout:
    """Check the rule set and lay out the sweep's tables.

    Raises
    ------
    ValueError
        Without both Nim rays, with block < 0, or on a malformed rule.
    """
    if block < 0:
        raise ValueError("block must be >= 0")
    r = rules(rays, moves)
    kept = {tuple(v) for v in r.rays.tolist()}
    if not {(1, 0), (0, 1)} <= kept:
        raise ValueError("the blocking sweep needs both rays (1, 0) and (0, 1)")
    extra = np.array([(a, c) for a, c in sorted(kept) if a and c], dtype=np.int64)
    extra = extra.reshape(-1, 2)
    g = np.gcd(extra[:, 0], extra[:, 1])
    rays3 = np.column_stack([extra[:, 0] // g, extra[:, 1] // g, g]).astype(np.int64)
    groups: dict[tuple[int, int], list[int]] = {}
    for p, q, gg in rays3.tolist():
        groups.setdefault((p, q), []).append(gg)
    shared = [(d, gs) for d, gs in sorted(groups.items()) if len(gs) > 1]
    dirs = np.array([d for d, _ in shared], dtype=np.int64).reshape(-1, 2)
    dstart = np.cumsum([0] + [len(gs) for _, gs in shared]).astype(np.int64)
    dgs = np.array([gg for _, gs in shared for gg in gs], dtype=np.int64)
    return Layout(
        block,
        rays3,
        r.moves,
        dirs,
        dstart,
        dgs,
        (rays3[:, 0] + rays3[:, 1]) * rays3[:, 2],  # times n, plus g
        dirs[:, 0] + dirs[:, 1],  # times n, plus 1
    )


def levels(block: int, count: int) -> np.ndarray:
    """The ``count`` levels of the union-finds: 0, 1, ..., count - 2 and
    ``block`` itself (which the scan needs when nothing lies below it)."""
    count = max(1, min(count, block + 1))
    return np.array([*range(count - 1), block], dtype=np.int64)


def _spread(room: int, parts: int) -> list[list[int]]:
    """Every way of writing ``room`` as ``parts`` non-negative terms."""
    if parts == 1:
        return [[room]]
    return [
        [v, *rest] for v in range(room + 1) for rest in _spread(room - v, parts - 1)
    ]


def search_count(block: int, solo: int) -> int:
    """The searches a column may run with every level kept: the ways of
    spreading the room ``block`` over the row and ``solo`` rays."""
    return math.comb(block + solo, solo)


def searches(lev: np.ndarray, solo: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The leapfrog searches of each room r = 0..b (b = ``lev[-1]``), as
    level indices of [row, ray 0, ray 1, ...] (``comps[cstart[r]:cstart[r+1]]``).

    With every level kept (``lev`` = 0..b) they are the ways of spreading r
    over the row and the rays in no shared direction (``solo``): a cell
    whose counts sum to at most r meets one of them, and a cell one of them
    finds sums to at most r, so only single moves, forced N cells and
    shared directions can make a found cell N. A ray in a shared direction
    stays at level b (its own count is a lower bound of the direction's).
    With fewer levels, each room has one search, every count at the least
    level >= r: a cell it finds can still sum to more than r.
    """
    b = int(lev[-1])
    top = len(lev) - 1
    rows: list[list[int]] = []
    cstart = [0]
    whole = len(lev) == b + 1
    for room in range(b + 1):
        if whole:
            for spread in _spread(room, 1 + int(solo.sum())):
                it = iter(spread[1:])
                rows.append([spread[0], *(next(it) if s else top for s in solo)])
        else:
            level = int(np.searchsorted(lev, room))
            rows.append([level] * (1 + len(solo)))
        cstart.append(len(rows))
    comps = np.array(rows, dtype=np.int64).reshape(-1, 1 + len(solo))
    return comps, np.array(cstart, dtype=np.int64)


def parents(comps: np.ndarray, cstart: np.ndarray) -> np.ndarray:
    """For each search of room r < b, a search of room r + 1 that accepts
    every cell it does (its row level one higher, or the same levels when
    fewer are kept), or -1: when one more P-position lies below the scan,
    a search need not start below its parent's answer (the sets only
    shrink)."""
    found = np.full(len(comps), -1, dtype=np.int64)
    for room in range(len(cstart) - 2):
        above = range(cstart[room + 1], cstart[room + 2])
        upper = {tuple(comps[s].tolist()): s for s in above}
        for s in range(cstart[room], cstart[room + 1]):
            for step in (1, 0):
                key = (int(comps[s, 0]) + step, *comps[s, 1:].tolist())
                if key in upper:
                    found[s] = upper[key]
                    break
    return found


def _solo(lay: Layout) -> np.ndarray:
    """1 for each ray alone in its direction, 0 for the shared ones."""
    solo = np.ones(len(lay.rays), dtype=np.int64)
    for p, q in lay.dirs.tolist():
        solo[(lay.rays[:, 0] == p) & (lay.rays[:, 1] == q)] = 0
    return solo


def searches_per_column(lay: Layout) -> int:
    """How many leapfrog searches a column starts, over every room 0..b
    (:func:`searches`, with :func:`default_levels`)."""
    solo = int(_solo(lay).sum())
    if default_levels(lay) < lay.block + 1:
        return lay.block + 1
    return sum(search_count(room, solo) for room in range(lay.block + 1))


def default_levels(lay: Layout) -> int:
    """Every level 0..b while a column starts at most :data:`MAX_SEARCHES`
    searches (:func:`search_count`), else the level b alone."""
    spread = search_count(lay.block, int(_solo(lay).sum()))
    return lay.block + 1 if spread <= MAX_SEARCHES else 1


def table_bytes(n: int, lay: Layout, count: int, forced: int = 0) -> int:
    """Bytes :func:`block_sweep_p_positions` allocates with ``count`` levels
    (:func:`levels`) for ``forced`` forced P-positions."""
    count = max(1, min(count, lay.block + 1))
    rsize = lay.rsize * n + lay.rays[:, 2]
    lines = int(rsize.sum())
    keys = [n, *(lay.rays[:, 0] * lay.rays[:, 2] * _per(lay.rays, rsize)).tolist()]
    words = sum(bitsets.layout(int(size))[1] for size in keys)
    out = (lay.block + 1) * n + forced
    heads = int((lay.dlines * n + 1).sum()) if len(lay.dirs) else 0
    listed = out if len(lay.dirs) else 0
    return (
        count * 8 * words  # the level bitsets
        + n  # row counters
        + lines  # line counters
        + 8 * (n + 1)  # column starts
        + 8 * out  # positions found (x, y as int32)
        + 8 * (n + out)  # the row lists of a symmetric game
        + 8 * (heads + listed)  # the shared directions' lists
        + 16 * out  # the (k, 2) int64 answer
    )


def block_sweep_p_positions(
    n: int,
    block: int,
    rays: Any = ((1, 0), (0, 1)),
    moves: Any = None,
    forced_p: Any = None,
    forced_n: Any = None,
    count: int | None = None,
    stats: np.ndarray | None = None,
) -> np.ndarray:
    """Every P-position with x, y < n of a blocking game with both Nim rays.

    Parameters
    ----------
    n : int
        The box side (>= 0).
    block : int
        P iff at most ``block`` options are P (0: the normal play rule).
    rays : array_like of shape (k, 2)
        Must contain (1, 0) and (0, 1); any others are allowed.
    moves : array_like of shape (k, 2)
        Single moves.
    forced_p, forced_n : array_like of shape (k, 2)
        Cells forced P or N (those outside the box are ignored).
    count : int, optional
        Levels of union-finds (:func:`levels`); every level 0..block by
        default.
    stats : numpy.ndarray, optional
        Two int64 counters, increased by the cells counted exactly and the
        union-find jumps.

    Returns
    -------
    numpy.ndarray
        (k, 2) int64 sorted by x then y; the same as
        :func:`~catalog.compute.dense.dense_p_positions`.

    Raises
    ------
    ValueError
        Without both Nim rays, on a malformed rule or a cell forced both ways.

    Notes
    -----
    Time and memory: the module docstring; :func:`table_bytes` gives the
    bytes, which callers bound before calling.

    Examples
    --------
    >>> block_sweep_p_positions(6, 1, [[1, 0], [0, 1], [1, 1]]).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 3], [2, 2], [2, 5], [3, 1], [5, 2]]
    """
    lay = layout(block, rays, moves)
    fp = _cells(forced_p, n)
    fn = _cells(forced_n, n)
    both = {tuple(c) for c in fp.tolist()} & {tuple(c) for c in fn.tolist()}
    if both:
        raise ValueError("a cell is forced both P and N")
    if n <= 0:
        return np.zeros((0, 2), dtype=np.int64)
    solo = _solo(lay)
    lev = levels(block, default_levels(lay) if count is None else count)
    comps, cstart = searches(lev, solo)
    parent = parents(comps, cstart)
    nl = len(lev)
    rsize = lay.rsize * n + lay.rays[:, 2]
    cbase = (np.cumsum(rsize) - rsize).astype(np.int64)
    hsize = lay.dlines * n + 1
    hbase = (np.cumsum(hsize) - hsize).astype(np.int64)
    cap = (block + 1) * n + len(fp)
    columns = 1 + max(int(fp[:, 0].max(initial=-1)), int(fn[:, 0].max(initial=-1)))
    fp_start, fp_y = _csr(tuple(map(tuple, fp.tolist())), columns)
    fn_start, fn_y = _csr(tuple(map(tuple, fn.tolist())), columns)
    out_x = np.empty(cap, dtype=np.int32)
    out_y = np.empty(cap, dtype=np.int32)
    shared = len(lay.dirs) > 0
    bits, bl, per = _bitsets(n, nl, lay.rays, rsize)
    sym = _symmetric(lay, fp, fn)
    found = _sweep(
        n, block, lev, comps, cstart, parent, lay.rays, per, cbase,
        np.zeros(int(rsize.sum()), dtype=np.uint8), bits, bl,
        solo, lay.dirs, lay.dstart, lay.dgs, hbase,
        np.full(int(hsize.sum()) if shared else 0, -1, dtype=np.int64),
        np.full(cap if shared else 0, -1, dtype=np.int64),
        lay.moves, fp_start, fp_y, fn_start, fn_y, columns,
        np.zeros(n, dtype=np.uint8), np.zeros(n + 1, dtype=np.int64), out_x, out_y,
        sym, np.full(n if sym else 0, -1, dtype=np.int64),
        np.empty(cap if sym else 0, dtype=np.int64),  # written before read
        np.zeros(len(lay.rays), dtype=np.int64),  # each ray's line of (x, 0)
        np.zeros(len(lay.rays), dtype=np.int64),  # and its bitset key
        np.full(len(comps), -1, dtype=np.int64),  # each search's answer
        np.zeros(len(comps), dtype=np.int64),  # and where it may start
        np.zeros(2, dtype=np.int64) if stats is None else stats,
    )  # fmt: skip
    return np.column_stack([out_x[:found], out_y[:found]]).astype(np.int64)


def _bitsets(
    n: int, levels: int, rays: np.ndarray, rsize: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The level bitsets with every key in: the rows' ``levels`` bitsets,
    then each ray's; their offsets (a row of
    :func:`catalog.compute.bitsets.layout`'s four for each set and level,
    rows first); and each ray's keys a residue class (:func:`_key`)."""
    per = _per(rays, rsize)
    offsets = []
    sizes = []
    words = 0
    for size in [n, *(rays[:, 0] * rays[:, 2] * per).tolist()]:
        for _ in range(levels):
            where, words = bitsets.layout(int(size), words)
            offsets.append(where)
            sizes.append(int(size))
    bits = np.zeros(words, dtype=np.uint64)
    for where, size in zip(offsets, sizes, strict=True):
        bitsets.fill(bits, where, size)
    return bits, np.array(offsets, dtype=np.int64).reshape(-1, 4), per


def _per(rays: np.ndarray, rsize: np.ndarray) -> np.ndarray:
    """Each ray's bitset keys a residue class of its lines mod its stride."""
    return (rsize // (rays[:, 0] * rays[:, 2]) + 1).astype(np.int64)


def _symmetric(lay: Layout, fp: np.ndarray, fn: np.ndarray) -> bool:
    """Is the game its own mirror (rules and forced cells)? Then its
    P-positions are too."""
    rays = lay.rays[:, :2] * lay.rays[:, 2:]
    return all(mirrored(p) for p in (rays, lay.moves, fp, fn))


def _cells(cells: Any, n: int) -> np.ndarray:
    """Forced cells inside the box, (k, 2) int64, without repeats."""
    arr = np.asarray([] if cells is None else cells, dtype=np.int64).reshape(-1, 2)
    if (arr < 0).any():
        raise ValueError("forced cells must have non-negative coordinates")
    return np.unique(arr[(arr[:, 0] < n) & (arr[:, 1] < n)], axis=0)
