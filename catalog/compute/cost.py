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

============== =========================================== =================
engine         seconds for the columns [x0, x1)            used for
============== =========================================== =================
closed         c * (x1 - x0)                               Wythoff's Nim
altered        c * (x1 - x0)                               altered Wythoff
kernel         c * r * b * (x1 - x0)                       one vertical ray
sweep          r * sum over x of (a + c * x)               numpy, column mode
ho-restriction r * sum over x of (a + c * x)               numpy, Ho's rules
ho-extension   r * sum over x of (a + c * x)               numpy, Ho's rules
box            r * (x1 - x0) * (a + c * H)                 no vertical ray
============== =========================================== =================

A Grundy table (:func:`grundy_seconds`) costs, per cell, ``a`` per rule plus
``c * n`` per ray kept as line bitsets (the mex scans words of them, and the
words grow with n), plus ``grundy-walk`` per option of a walked ray, plus
``grundy-emit`` per value written out as JSON.

The numpy sweeps are quadratic in practice: a column scans the rows below
which a diagonal line can still be blocked, about x of them. Storing adds
``store`` per new P-position (encoding, writing, reading back), ``derive``
per column of the whole extent (the sequences and their search index are
rebuilt when a fill ends) and ``resume`` per stored column read back to
continue a sweep.

The constants are rounded up from the measurements: an estimate should
rather refuse a request that would have fitted than let one overrun.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.compute.altered import is_altered_wythoff
from catalog.compute.closed import is_wythoff
from catalog.compute.grundy import plan as grundy_plan
from catalog.compute.kernel import supported as kernel_supported
from catalog.compute.ptable import column_mode
from catalog.games.definition import Definition


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
    # per rule: a + c * x for column x
    "sweep": Rate(column=2.8e-4, cell=2.0e-8),
    "ho-restriction": Rate(column=1.5e-4, cell=4.0e-8),
    "ho-extension": Rate(column=2.6e-4, cell=1.8e-7),
    # Grundy values, per cell: a per rule + c * n per line ray; per option of
    # a walked ray; per value written as JSON
    "grundy": Rate(column=8.0e-8, cell=1.0e-11),
    "grundy-walk": Rate(column=1.0e-8),
    "grundy-emit": Rate(column=8.0e-8),
    # per rule: a + c * H for a column of height H
    "box": Rate(column=6.0e-5, cell=1.5e-7),
    # storing: per new P-position, per column of the extent (derive), per
    # stored column read back (resume: kernel; resume-sweep: numpy)
    "store": Rate(column=2.5e-6),
    "derive": Rate(column=1.6e-6),
    "resume": Rate(column=5.0e-7),
    "resume-sweep": Rate(column=7.0e-5),
    # per committed chunk (a transaction, the extent, the heartbeat): set from
    # the commits of tests/store, not measured by benchmarks/cost.py
    "commit": Rate(column=5.0e-3),
}


def rules(game: Definition) -> int:
    return max(1, len(game.rays) + len(game.moves) + len(game.special))


def _period(game: Definition) -> int:
    return next((b for a, b in game.rays if a == 0), 1)


def fill_engine(game: Definition) -> str:
    """The engine a store fill runs (:func:`catalog.compute.ptable.resume_sweep`)."""
    if not column_mode(game):
        return "box"
    if kernel_supported(game):
        return "kernel"
    for rule in ("ho-extension", "ho-restriction"):
        if rule in game.special:
            return rule
    return "sweep"


def engine_seconds(
    engine: str, game: Definition, x0: int, x1: int, height: int | None = None
) -> float:
    """Expected seconds for ``engine`` to compute the columns [x0, x1) of
    ``game`` (rows below ``height`` in box mode)."""
    if x1 <= x0:
        return 0.0
    rate = CONSTANTS[engine]
    columns = x1 - x0
    if engine in ("closed", "altered"):
        return rate.column * columns
    if engine == "kernel":
        return rate.column * rules(game) * _period(game) * columns
    if engine == "box":
        tall = height if height is not None else x1
        return rules(game) * columns * (rate.column + rate.cell * tall)
    # sum over x in [x0, x1) of (a + c * x)
    scanned = (x1 * (x1 - 1) - x0 * (x0 - 1)) / 2
    return rules(game) * (rate.column * columns + rate.cell * scanned)


def grundy_seconds(game: Definition, n: int) -> float:
    """Expected seconds of a Grundy table up to ``n`` written out as JSON
    (:func:`catalog.compute.grundy.grundy`, then its text)."""
    how = grundy_plan(game, n)
    cells = float(n) * n
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
    engine = fill_engine(game)
    return engine_seconds(engine, game, 0, n, n if engine == "box" else None)


def _positions_per_column(game: Definition, engine: str) -> int:
    # A column holds at most b P-positions besides its forced ones (column
    # mode); box games are seen to hold a few per column.
    return _period(game) if engine != "box" else 2


def fill_seconds(
    game: Definition, stored_x: int, stored_y: int | None, n: int
) -> float:
    """Expected seconds for the store to hold every P-position with x, y < n
    when it holds columns [0, stored_x) (rows [0, stored_y) in box mode):
    resuming, computing, storing, deriving. Zero when nothing is missing."""
    engine = fill_engine(game)
    if engine != "box":
        if stored_x >= n:
            return 0.0
        resume = "resume-sweep" if engine != "kernel" else "resume"
        return (
            CONSTANTS[resume].column * stored_x
            + engine_seconds(engine, game, stored_x, n)
            + _storing(game, engine, n - stored_x, n)
        )
    if stored_y is not None and stored_y >= n:
        if stored_x >= n:
            return 0.0
        # The same box continued to the right.
        return (
            CONSTANTS["resume-sweep"].column * stored_x
            + engine_seconds("box", game, stored_x, n, stored_y)
            + _storing(game, engine, n - stored_x, n)
        )
    # A taller box: every column is computed again.
    width = max(n, stored_x)
    return engine_seconds("box", game, 0, width, n) + _storing(
        game, engine, width, width
    )


def _storing(game: Definition, engine: str, columns: int, extent: int) -> float:
    per = _positions_per_column(game, engine)
    return (
        CONSTANTS["store"].column * per * columns
        + CONSTANTS["derive"].column * per * extent
    )


def chunk_seconds(game: Definition, x0: int, x1: int) -> float:
    """Expected seconds to compute and store the columns [x0, x1) of a
    column-mode fill, once resumed."""
    engine = fill_engine(game)
    per = _positions_per_column(game, engine)
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
