"""The cone sweep's climb of a column over all classes of rows at once, when
every cone's blocked rows only grow under one shear.

The cone sweep (:mod:`catalog.compute.conesweep`) searches each class of rows
mod M (the lcm of the cones' mods) apart, since a cone jumps only over rows
of its own class; so a column costs M searches even when its P-position is
its lowest free row. With the two wedges of (s,t)-Wythoff at mod 64 that was
about 90 finds and 100 cone queries a column (50x Maharaja Nim at 10^6),
most of them proving again, class by class, that a class's lowest free rows
are blocked.

What one P-position (x', y') blocks in column x is, in its class, an
interval of rows whose ends move with x. Under a shear σ with both ends
moving the right way in w = y - σx (:func:`shears`: σ in [s1, s2] for a
wedge, [s1, ∞) for a plain cone without an upper line, σ = s for a band,
σ = 1 for a mirrored wedge, σ <= 1 for a mirrored cone without an upper
line and s1 = 1, any σ for one with s1 = 0) that set only grows, and with
σ ≡ 1 (mod M) row y + σ is in the class of row y one column on. So when one
σ suits every cone (:func:`common_shear`), whatever the structures block
(components, the least keys, prefix-maximum trees, see
:mod:`catalog.compute.conetrees`) stays blocked: if they block (x, y), they
block (x', y + σ (x' - x)) in every later column x'. The climb keeps one
more union-find, ``settled``, over w + σn (every class on one line, chains
one apart): a settled w is a row known blocked from then on, and a find
skips a run of settled rows whatever their classes. A band's blocked lines
are rows of fixed w: its P-positions settle them when they enter, so a band
needs no lines of its own (with mod 64 at 10^6 those took 2 GB). A column
climbs its rows once, from the bottom: the next free row (the rows'
union-find, chains one apart), the next unsettled w from there, and so on
until both agree on a row; that row's structures are asked
(:func:`settled_run`). If one blocks it, its w is settled (with the rest of
the run of a cone of mod 1) and the climb goes on one row up; if none does,
the P-positions too young for the structures, the extra rays, the moves and
the forced labels are asked (:mod:`catalog.compute.conecells`), and the
first row they leave free is the column's P-position.

Cost: a w is settled once, by one query a cone (a predecessor search for
components, O(1) for the least keys, O(log n) for a tree), or by a band's
P-position, at most (t2 - t1) / m + 1 lines each; so the sweep's queries
are at most (σ + 1) n settlements plus, a column, its answer and the rows
that only young P-positions, extra rays, moves or forced labels block; the
finds are amortised by path compression apart from the hops between free
rows and unsettled w, which no bound here limits. Measured on (2,3)-Wythoff's
wedges at n = 10^6: about 2.7 finds of rows, 2.4 of ``settled`` and 2.5
component queries a column, whatever the mod from 2 to 64, where the class
by class search took 1.4 M finds (0.45 s instead of 4.9 s at mod 64); the
64-modular cone 0.05-0.09 s instead of 1.0 s, the mirrored one 0.08 s
instead of 1.8 s (then a Fenwick tree per class). Memory: 8 ((σ + 1) n + 2)
bytes of ``settled``, counted in the sweep's budget. With M = 1 the
sweep's search is already one climb a column, and measured faster than this
one (one union-find fewer), so it is kept.
"""

from __future__ import annotations

from math import lcm

import numpy as np

from catalog.compute import conetrees, wedges
from catalog.compute.conecells import (
    _blocked,
    _last_blocked,
    _nforced,
    _rays_free,
    _row,
    _use_lines,
)
from catalog.compute.jit import njit
from catalog.compute.kernel import _find
from catalog.compute.wedges import ENTRY, KIND, field, insert, last_blocked, merge_due

#: No upper limit on σ.
ANY = 1 << 40


def shears(row: list[int]) -> tuple[int, int]:
    """The shears σ >= 0, an interval [lo, hi] (empty when hi < lo), under
    which what one P-position of cone ``row`` blocks in column x only grows
    in w = y - σ x as x grows (its class aside): the lower end of its rows
    must fall at least as fast as σ, the upper one at most as fast."""
    s1, _t1, s2, _t2, hi, _m, mirror = (int(v) for v in row)
    if mirror:
        if hi:  # rows from y' + (x - x' - t2) / s2 to y' + (x - x' - t1) / s1
            return (1, 1) if s1 <= 1 <= s2 else (1, 0)
        # rows above y' up to y' + (x - x' - t1) / s1 (no end when s1 = 0)
        return (0, ANY) if s1 == 0 else (0, 1) if s1 == 1 else (0, 0)
    return (s1, s2 if hi else ANY)  # rows from y' + s1 k + t1 up (a band: s1 = s2)


def common_shear(big_m: int, cones: np.ndarray) -> int:
    """The σ of the climb for these cones: the least σ ≡ 1 (mod M), so that
    a row's class y - x is that of the row σ higher one column on, in every
    cone's interval of :func:`shears`; -1 to leave them to the class by
    class search (M = 1, or no common σ)."""
    if big_m <= 1 or not len(cones):
        return -1
    bounds = [shears(row) for row in cones.tolist()]
    lo, hi = max(b[0] for b in bounds), min(b[1] for b in bounds)
    sigma = lo + (1 - lo) % lcm(big_m, *(int(m) for m in cones[:, 5]))
    return sigma if sigma <= hi else -1


@njit(cache=True, inline="always")
def _young(cones, delay, col, fp_start, fp_y, forced_cols, x, y):
    """Does a P-position too young for its cone's structure block (x, y)
    (the latest delay - 1 columns, checked directly)?"""
    for j in range(cones.shape[0]):
        s1, t1, s2, t2, hi, m, mirror = _row(cones, j)
        for xo in range(max(0, x - delay[j] + 1), x):
            for idx in range(-1, _nforced(fp_start, xo, forced_cols)):
                yo = col[xo] if idx < 0 else fp_y[fp_start[xo] + idx]
                if yo >= 0 and (
                    _last_blocked(s1, t1, s2, t2, hi, m, mirror, x, y, xo, yo) >= 0
                ):
                    return True
    return False


@njit(cache=True, inline="always")
def settled_run(ws, bits, cones, shift, tbase, tsize, tv, tu, x, y, n):
    """How many rows from (x, y) up the cones' structures block for good
    (bands aside: their lines are settled as they are blocked). 0 if none
    blocks (x, y); the rest of the run below n of a cone of mod 1 that
    blocks it; else 1 (a class of a mod m > 1 holds one row in m)."""
    for j in range(cones.shape[0]):
        if field(ws, j, KIND):
            last = last_blocked(ws, bits, j, x, y)
        elif conetrees.is_band(cones, j):
            continue
        else:
            last = conetrees.last(cones, j, n, shift, tbase, tsize, tv, tu, bits, x, y)
        if last >= y:
            return min(last, n - 1) - y + 1 if cones[j, 5] == 1 else 1
    return 0


@njit(cache=True, inline="always")
def _settle_band(settled, top, lo, hi, m, w0):
    """Settle the lines w in [lo, hi] with w ≡ w0 (mod m) (indices in
    ``settled``, clipped to its ``top``): a band's P-position blocks them
    for good. Runs already settled are skipped by finds."""
    w = max(lo, 0)
    hi = min(hi, top - 1)
    while w <= hi:
        w = _find(settled, 0, w, top, None)
        w += (w0 - w) % m
        if w > hi:
            break
        if settled[w] == 0:
            settled[w] = 1
        w += m


@njit(cache=True, _nrt=False)
def scan(
    n, sigma, cones, delay, shift, tbase, tsize, tv, tu, ws, bits, rays, used,
    lbase, moves, fp_start, fp_y, fn_start, fn_y, col, rows, settled, stats,
    sym, mirror,
):  # fmt: skip
    """Fill col[x] (the natural P-position of column x below n, or -1) for
    x < n, as :func:`catalog.compute.conesweep._sweep` does; ``rows`` and
    ``settled`` start all free (zeros), of n + 1 and (σ + 1) n + 2 slots.
    ``sym``: the game is its own mirror, ``mirror[y]`` the column whose
    P-position lies in row y > column (-1: none yet)."""
    nc = cones.shape[0]
    forced_cols = fp_start.size - 1
    others = fn_y.size > 0 or moves.shape[0] > 0
    top = settled.size - 1
    for x in range(n):
        if ws[ws[wedges.HEADS] + x]:
            merge_due(ws, bits, x)
        for j in range(nc):  # P-positions old enough join the structures
            wedge = field(ws, j, KIND) != 0
            xo = x - (field(ws, j, ENTRY) if wedge else delay[j])
            if xo < 0:
                continue
            band = conetrees.is_band(cones, j)
            for idx in range(-1, _nforced(fp_start, xo, forced_cols)):
                yo = col[xo] if idx < 0 else fp_y[fp_start[xo] + idx]
                if yo < 0:
                    continue
                if wedge:
                    insert(ws, bits, j, x, xo, yo)
                elif band:  # its lines w = y - σ x, as settled indices
                    u = yo - sigma * xo + sigma * n
                    _settle_band(
                        settled, top, u + cones[j, 1], u + cones[j, 3], cones[j, 5], u
                    )
                else:
                    conetrees.enter(
                        cones, j, n, shift, tbase, tsize, tv, tu, bits, xo, yo
                    )
        limit = n
        if x < forced_cols and fp_start[x] < fp_start[x + 1]:
            limit = min(n, fp_y[fp_start[x]])
        shift_x = sigma * (n - x)  # row y is w = y + shift_x
        best = limit
        y = 0
        searching = True
        if sym:  # as conesweep._sweep: a mirror found, or none below x
            if mirror[x] >= 0:
                best = mirror[x]
                searching = False
            y = x
        while searching:
            stats[0] += 1
            y = _find(rows, 0, y, n, None)
            if y >= limit:
                break
            w = _find(settled, 0, y + shift_x, top, None)
            if w > y + shift_x:  # a run of settled rows
                y = w - shift_x
                continue
            run = settled_run(ws, bits, cones, shift, tbase, tsize, tv, tu, x, y, n)
            if run:
                settled[w] = run
                y += run
                continue
            if _young(cones, delay, col, fp_start, fp_y, forced_cols, x, y):
                y += 1
                continue
            # After the cones, whose rows settle for good (asked first, the
            # rays left them to be climbed again each column: quadratic).
            if rays.shape[0]:
                free = _rays_free(x, y, rays, used, lbase, n)
                if free > y:
                    y = free
                    continue
            if others and _blocked(
                x, y, moves, col, fp_start, fp_y, fn_start, fn_y, forced_cols
            ):
                y += 1
                continue
            best = y
            break
        col[x] = best if best < limit else -1
        if sym and x < best < limit:
            mirror[best] = x
        for idx in range(-1, _nforced(fp_start, x, forced_cols)):
            yo = col[x] if idx < 0 else fp_y[fp_start[x] + idx]
            if yo < 0:
                continue
            rows[yo] = 1
            _use_lines(x, yo, rays, used, lbase, n)
