"""How long a computation is expected to take: the work estimate.

Each engine's cost is a small formula in the columns it computes and the rows
it scans, with constants measured on a reference machine by
``benchmarks/cost.py`` (which prints the fresh constants and each estimate
against a fresh timing). Every constant lives in :data:`CONSTANTS`; nothing
else in the catalog guesses at speed. The API refuses a request whose
estimate exceeds its budget (``WYTHOFF_INLINE_SECONDS``) before computing
anything, and the store sizes its chunks by the same estimate.

The engines and their models (x: a column, n: the bound, r: rays + moves +
special rules, b: the vertical ray's period, H: the box height):

=========== ================================================ ================
engine      seconds for the columns [x0, x1)                 used for
=========== ================================================ ================
closed      c * (x1 - x0)                                    Wythoff's Nim
altered     c * (x1 - x0)                                    altered Wythoff
kernel      c * r * b * (x1 - x0)                            one vertical ray
general     c * r * b * (x1 - x0)                            other column
                                                             games, Ho's rules
transposed  (kernel or general of the transpose, H columns)  horizontal ray,
            + c * b' * (x1 - x0)                             no vertical one
box         r * (x1 - x0) * (a + c * d(H))                   neither ray
cones       m * (c * r + s * steps(m)), m = max(x1, H)       cones, Nim's rays
blocking    c * m * work(m), m = max(x1, H)                  blocking, Nim's
                                                             rays
dense       c * w * max(x1, H)^2                             other blocking,
                                                             Euclid, cones
=========== ================================================ ================

Every engine is a compiled sweep whose cost follows its jumps and its
P-positions, never the height of a column. A transposed game (b' the period
of its horizontal ray) computes the H columns of its transpose, then reads
the box's columns off them. In box mode d(H) is the number of P-positions
per column at height H, which the game decides: a probe computes the boxes
128 and 256 wide and extrapolates the growth between them (:func:`density`).
The cone sweep's steps a column, steps(m), come likewise from probes 1,024,
2,048 and 4,096 wide (:func:`_cone_work`), and the blocking sweep's work
from two (:func:`_block_work`).

A Grundy table (:func:`grundy_seconds`) costs, per cell, ``a`` per rule plus
``c * n`` per ray kept as line bitsets (the mex scans words of them, and the
words grow with n), plus ``grundy-walk`` per option of a walked ray, plus
``grundy-emit`` per value written out as JSON.

Storing adds
``store`` per new P-position (encoding, writing, reading back), ``derive``
per column of the whole extent (the sequences and their search index are
rebuilt when a fill ends) and ``resume`` per stored column read back to
continue a sweep.

The constants are rounded up from the measurements: an estimate should
rather refuse a request that would have fitted than let one overrun.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from catalog.compute.altered import is_altered_wythoff
from catalog.compute.closed import is_wythoff
from catalog.compute.grundy import plan as grundy_plan
from catalog.compute.kindsweeps import box_positions
from catalog.compute.modes import MAX_BOX_BYTES, engine, transpose
from catalog.errors import TooMuchWork
from catalog.games.definition import Definition

#: Seconds per unit of the blocking sweep's work (:func:`_block_work`): a
#: search started or a cell counted; a word a search reads is
#: BLOCKING_WORD of a unit (measured at 10^6 on Blocking Wythoff and
#: Maharaja Nim, b = 1..4, about 1.5 times the CPU time on a busy machine).
BLOCKING_RATE = 7.0e-8
BLOCKING_WORD = 0.08
#: A word read when the game has one ray besides Nim's (Blocking Wythoff and
#: Maharaja Nim): the sweep tests those 32 at once
#: (:func:`catalog.compute.blocksweep._run`), about a quarter of the cost.
BLOCKING_RUN_WORD = 0.02


@dataclass(frozen=True)
class Rate:
    """Seconds per column (``column``) plus seconds per row scanned in that
    column (``cell``), per rule of the game where the engine says so."""

    column: float
    cell: float = 0.0


#: Measured by ``benchmarks/cost.py`` on a shared 2-core machine, twice (idle
#: and busy: the busy run is up to 2.5 times slower), taking the larger value.
CONSTANTS: dict[str, Rate] = {
    "closed": Rate(column=1.2e-7),
    "altered": Rate(column=2.0e-8),
    # per column, per rule and per unit of the vertical period b
    "kernel": Rate(column=3.0e-7),
    "general": Rate(column=4.0e-7),
    # reading the box's columns off the transpose: per column and per unit of
    # the horizontal period (the transpose's columns cost as their engine)
    "transposed": Rate(column=1.0e-7),
    # per rule: a + c * d for a column holding d P-positions
    "box": Rate(column=3.0e-7, cell=1.0e-7),
    # the sparse sweep of cone games with Nim's rays: per column and rule
    # (wedges amortised O(1) a P-position since 2026-11; bench-cones at 10^6:
    # 0.3-6x Maharaja's 0.12 s, the busy machine's 2.5x on top)
    "cones": Rate(column=5.0e-7),
    # the sparse sweep of blocking games with Nim's rays: per column and unit
    # of its work there (the searches a column starts, plus the union-find
    # jumps and exact counts a column takes, from two probes: _block_work)
    "blocking": Rate(column=BLOCKING_RATE),
    # the dense engine: per cell of the square box and unit of its weight
    # (rules, plus mod + 2 a cone)
    "dense": Rate(column=1.0e-7, cell=5.0e-9),
    # the subtraction engine (Beatty moves, ⋆): per cube of the side (its
    # bitset sums), plus the game of a ⋆ computed first
    "subtraction": Rate(column=1.0e-11),
    # Grundy values, per cell: a per rule + c * n per line ray; per option of
    # a walked ray; per value written as JSON
    "grundy": Rate(column=8.0e-8, cell=1.0e-11),
    "grundy-walk": Rate(column=1.0e-8),
    "grundy-emit": Rate(column=8.0e-8),
    # storing: per new P-position, per column of the extent (derive), per
    # stored column read back to resume a compiled sweep
    "store": Rate(column=2.5e-6),
    "derive": Rate(column=1.6e-6),
    "resume": Rate(column=5.0e-7),
}


def rules(game: Definition) -> int:
    count = len(game.rays) + len(game.moves) + len(game.special) + len(game.cones)
    return max(1, count + (1 if game.block else 0))


def _period(game: Definition) -> int:
    return next((b for a, b in game.rays if a == 0), 1)


#: Widths of the two probe boxes of :func:`density`.
PROBE = 128


@lru_cache(maxsize=256)
def _probe(game: Definition) -> tuple[float, float]:
    """P-positions per column in the boxes PROBE and 2 * PROBE wide."""
    counts = []
    for side in (PROBE, 2 * PROBE):
        counts.append(max(1.0, len(box_positions(game, side)) / side))
    return counts[0], counts[1]


#: Widths of the two probe boxes of :func:`_block_work`.
BLOCK_PROBE = 1024


@lru_cache(maxsize=256)
def _block_probe(game: Definition) -> tuple[float, float, float, int]:
    """The blocking sweep's words read per column in the boxes BLOCK_PROBE
    and 2 * BLOCK_PROBE wide (in units: each :data:`BLOCKING_WORD`, or
    :data:`BLOCKING_RUN_WORD` with one ray besides Nim's), its exact counts
    per column in the second, and the searches a column starts."""
    from catalog.compute import blocksweep

    pairs = {
        key: np.array(getattr(game, key), dtype=np.int64).reshape(-1, 2)
        for key in ("rays", "moves", "forced_p", "forced_n")
    }
    words = []
    stats = np.zeros(2, dtype=np.int64)
    for side in (BLOCK_PROBE, 2 * BLOCK_PROBE):
        stats[:] = 0
        blocksweep.block_sweep_p_positions(
            side,
            game.block,
            pairs["rays"],
            pairs["moves"],
            pairs["forced_p"],
            pairs["forced_n"],
            stats=stats,
        )
        words.append(max(1.0, float(stats[1]) / side))
    lay = blocksweep.layout(game.block, pairs["rays"], pairs["moves"])
    exact = float(stats[0]) / (2 * BLOCK_PROBE)
    weight = BLOCKING_RUN_WORD if len(lay.rays) == 1 else BLOCKING_WORD
    return (
        weight * words[0],
        weight * words[1],
        exact,
        blocksweep.searches_per_column(lay),
    )


#: Width of the least of the three probe boxes of :func:`_cone_work` (then
#: twice and four times as wide).
CONE_PROBE = 1024
#: Seconds a step of the cone sweep's search (a free row found, then passed
#: or taken, or a cone asked: :func:`catalog.compute.conesweep._sweep`):
#: 16-20 ns at 10^6 beside Wythoff's diagonal with mod 4 or 8, where a
#: column takes about 25 steps (the games of few steps a column spend their
#: time in the per-rule term of :func:`engine_seconds`), five times that
#: for a busy machine and larger trees.
CONE_STEP = 1.0e-7


@lru_cache(maxsize=256)
def _cone_probe(game: Definition) -> tuple[float, float, float]:
    """The cone sweep's steps per column in the boxes 1, 2 and 4 times
    CONE_PROBE wide; none for the games a theorem answers in O(n)
    (a-Wythoff and (s,t)-Wythoff, as
    :class:`~catalog.compute.kindsweeps.ConeSweep` does). The game's
    transpose is probed too, and its steps taken where the sweep would
    take it (:func:`catalog.compute.conesweep._probe_transpose`, whose
    probe is as wide as the widest here)."""
    from catalog.compute import conesweep
    from catalog.compute.kindsweeps import cone_rows, st_parameters
    from catalog.compute.theorems import awythoff_parameter

    if awythoff_parameter(game) is not None or st_parameters(game) is not None:
        return 0.0, 0.0, 0.0
    rays, moves, forced_p, forced_n = (
        np.array(getattr(game, key), dtype=np.int64).reshape(-1, 2)
        for key in ("rays", "moves", "forced_p", "forced_n")
    )
    given = (cone_rows(game.cones), rays, moves, forced_p, forced_n)
    ways = [given]
    if not conesweep._own_transpose(given):
        ways.append(conesweep._transposed(given))
    found = []
    for args in ways:
        steps = []
        stats = np.zeros(1, dtype=np.int64)
        for side in (CONE_PROBE, 2 * CONE_PROBE, 4 * CONE_PROBE):
            stats[:] = 0
            conesweep.cone_sweep_p_positions(side, *args, stats=stats, transpose=False)
            steps.append(float(stats[0]) / side)
        found.append((steps[0], steps[1], steps[2]))
    if len(found) > 1 and found[1][2] < 0.8 * found[0][2]:
        return found[1]
    return found[0]


def _cone_work(game: Definition, side: int) -> float:
    """Expected steps a column of the cone sweep at ``side``, from three
    probes (:func:`_cone_probe`). Most games take a constant few; where each
    column searches rows that nothing carries over from the last (cones that
    no shear suits, beside an extra ray) they grow by about the same each
    time the side doubles, and that growth is carried on; a growth that
    itself grows between the probes (a search as long as the column) is
    carried on linearly in the side instead."""
    s1, s2, s3 = _cone_probe(game)
    step1, step2 = max(0.0, s2 - s1), max(0.0, s3 - s2)
    far = max(0, side - 4 * CONE_PROBE)
    if step2 <= 1.2 * step1 + 0.05:  # at most logarithmic
        # the larger growth: a search that is about constant grows by
        # little, and by less than the noise of the probes between two
        return s3 + max(step1, step2) * math.log2(1 + far / (4 * CONE_PROBE))
    return s3 + step2 / (2 * CONE_PROBE) * far


def _block_work(game: Definition, side: int) -> float:
    """Expected work a column of the blocking sweep at ``side``, in units of
    :data:`BLOCKING_RATE`: the words its searches read (each
    :data:`BLOCKING_WORD` or :data:`BLOCKING_RUN_WORD` of a unit), grown as
    seen between the probes
    (constant for most games; linear in the side for b = 1, whose partly
    filled rows and diagonals interleave), plus the cells it counts and the
    searches it starts, a unit each."""
    w1, w2, exact, starts = _block_probe(game)
    # words a column: constant, or growing linearly (a search reads at most
    # side / 64 words), so a line through the two probes
    slope = max(0.0, (w2 - w1) / BLOCK_PROBE)
    return w2 + slope * max(0, side - 2 * BLOCK_PROBE) + exact + starts


def density(game: Definition, height: int) -> float:
    """Expected P-positions per column of a box-mode game at ``height``: the
    probes' density, grown at the rate seen between them (between constant
    and linear in the height), rounded up."""
    d1, d2 = _probe(game)
    if height <= 2 * PROBE:
        return d2
    growth = min(1.0, max(0.0, math.log2(d2 / d1)))
    return 1.25 * d2 * (height / (2 * PROBE)) ** growth


#: Bytes per P-position of a box at its peak: the sweep's output (8, and as
#: much again while it grows), the (k, 2) positions it returns (16), the
#: fill's copy of them (16) and the stored positions read back to derive the
#: sequences (16).
BOX_BYTES_PER_POSITION = 64


def box_bytes(game: Definition, n: int) -> float:
    """Expected peak bytes of a box-mode game's box n x n, by its density."""
    return BOX_BYTES_PER_POSITION * n * density(game, n)


def check_box_memory(game: Definition, n: int) -> None:
    """Refuse a box whose expected memory (:func:`box_bytes`) exceeds
    :data:`MAX_BOX_BYTES`, before anything is allocated; a box that fits
    even when every cell is P needs no probe."""
    if BOX_BYTES_PER_POSITION * n * n <= MAX_BOX_BYTES:
        return
    need = box_bytes(game, n)
    if need <= MAX_BOX_BYTES:
        return
    lo, hi = 1, n  # the largest n that fits: the estimate grows with n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if box_bytes(game, mid) <= MAX_BOX_BYTES:
            lo = mid
        else:
            hi = mid - 1
    raise TooMuchWork(
        f"n={n}: this game (neither a vertical nor a horizontal ray) is "
        f"computed as a box, which would hold about "
        f"{need / BOX_BYTES_PER_POSITION:.3g} "
        f"P-positions and need about {need / 2**20:.0f} MB, over the "
        f"{MAX_BOX_BYTES >> 20} MB a box may take; its largest n is about {lo}"
    )


def fill_engine(game: Definition) -> str:
    """The engine a store fill runs (:func:`catalog.compute.ptable.resume_sweep`)."""
    return engine(game)


def _column_engine(game: Definition) -> str:
    return engine(game)


def _dense_weight(game: Definition) -> int:
    """The dense engine's work a cell, in rules: a cone scans ``mod`` terms
    and its first columns apart (:mod:`catalog.compute.dense`)."""
    return rules(game) + sum(c.mod + 2 for c in game.cones)


def engine_seconds(
    engine: str, game: Definition, x0: int, x1: int, height: int | None = None
) -> float:
    """Expected seconds for ``engine`` to compute the columns [x0, x1) of
    ``game`` (rows below ``height`` in box mode)."""
    if x1 <= x0:
        return 0.0
    rate = CONSTANTS[engine]
    columns = x1 - x0
    tall = height if height is not None else x1
    if engine in ("closed", "altered"):
        return rate.column * columns
    if engine in ("kernel", "general"):
        return rate.column * rules(game) * _period(game) * columns
    if engine == "cones":  # the box is computed whole
        side = max(x1, tall)
        return side * (rate.column * rules(game) + CONE_STEP * _cone_work(game, side))
    if engine == "blocking":  # the box is computed whole
        side = max(x1, tall)
        return rate.column * side * _block_work(game, side)
    if engine == "dense":
        side = max(x1, tall)
        return rate.cell * _dense_weight(game) * side * side
    if engine == "subtraction":
        side = max(x1, tall)
        star = p_positions_seconds(game.star, side) if game.star else 0.0
        return rate.column * float(side) ** 3 + star
    if engine == "transposed":
        inner = transpose(game)
        return (
            engine_seconds(_column_engine(inner), inner, 0, tall)
            + rate.column * _period(inner) * columns
        )
    # box
    return rules(game) * columns * (rate.column + rate.cell * density(game, tall))


def grundy_seconds(game: Definition, n: int) -> float:
    """Expected seconds of a Grundy table up to ``n`` written out as JSON
    (:func:`catalog.compute.grundy.grundy`, then its text)."""
    cells = float(n) * n
    if game.beyond("rays", "moves", "ho-restriction"):
        # Cones and Euclid: the mex over each cell's enumerated options
        # (ruleset.dense_grundy), a row's and a column's worth for the lines
        # and Euclid, up to a quarter of the box above a cell per cone.
        options = 2.0 * n * (len(game.rays) + 1) + len(game.moves)
        options += sum(cells / 4 for _ in game.cones)
        return (
            CONSTANTS["grundy-walk"].column * cells * options
            + CONSTANTS["grundy-emit"].column * cells
        )
    how = grundy_plan(game, n)
    rate = CONSTANTS["grundy"]
    return (
        cells * (rate.column * rules(game) + rate.cell * n * len(how.lines))
        + CONSTANTS["grundy-walk"].column * how.walk_steps()
        + CONSTANTS["grundy-emit"].column * cells
    )


def p_positions_seconds(game: Definition, n: int) -> float:
    """Expected seconds of :func:`catalog.p_positions` (no store)."""
    if is_wythoff(game):
        return engine_seconds("closed", game, 0, n)
    if is_altered_wythoff(game):
        return engine_seconds("altered", game, 0, n)
    return engine_seconds(fill_engine(game), game, 0, n, n)


def _positions_per_column(game: Definition, engine: str, height: int) -> float:
    # A column holds at most b P-positions besides its forced ones (column
    # mode), a transposed game's row at most b'; box games as they are seen.
    if engine in ("box", "dense", "cones", "blocking", "subtraction"):
        return density(game, height)
    if engine == "transposed":
        return _period(transpose(game))
    return _period(game)


def fill_seconds(
    game: Definition, stored_x: int, stored_y: int | None, n: int
) -> float:
    """Expected seconds for the store to hold every P-position with x, y < n
    when it holds columns [0, stored_x) (rows [0, stored_y) in box mode):
    resuming, computing, storing, deriving. Zero when nothing is missing."""
    engine = fill_engine(game)
    if engine in ("kernel", "general"):
        if stored_x >= n:
            return 0.0
        return (
            CONSTANTS["resume"].column * stored_x
            + engine_seconds(engine, game, stored_x, n)
            + _storing(game, engine, n - stored_x, n)
        )
    if stored_y is not None and stored_y >= n:
        if stored_x >= n:
            return 0.0
        # The same box continued to the right.
        return (
            CONSTANTS["resume"].column * stored_x
            + engine_seconds(engine, game, stored_x, n, stored_y)
            + _storing(game, engine, n - stored_x, n, stored_y)
        )
    # A taller box: every column is computed again.
    width = max(n, stored_x)
    return engine_seconds(engine, game, 0, width, n) + _storing(
        game, engine, width, width, n
    )


def _storing(
    game: Definition, engine: str, columns: int, extent: int, height: int | None = None
) -> float:
    per = _positions_per_column(game, engine, height if height is not None else extent)
    return (
        CONSTANTS["store"].column * per * columns
        + CONSTANTS["derive"].column * per * extent
    )


def chunk_seconds(game: Definition, x0: int, x1: int) -> float:
    """Expected seconds to compute and store the columns [x0, x1) of a
    column-mode fill, once resumed."""
    engine = fill_engine(game)
    per = _positions_per_column(game, engine, x1)
    return engine_seconds(engine, game, x0, x1) + CONSTANTS["store"].column * per * (
        x1 - x0
    )


def chunk_columns(game: Definition, x0: int, seconds: float, most: int) -> int:
    """How many columns from ``x0`` on take about ``seconds`` to compute and
    store (at least 1, at most ``most``): the width of a fill's next chunk."""
    if chunk_seconds(game, x0, x0 + most) <= seconds:
        return most
    lo, hi = 1, most  # one column even if it alone takes longer
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if chunk_seconds(game, x0, x0 + mid) <= seconds:
            lo = mid
        else:
            hi = mid - 1
    return lo
