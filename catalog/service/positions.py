"""P-positions: compute and store on demand, read pages, outcomes of single
positions (exact far out where a theorem allows), Grundy values.

What is stored is read with plain connections and Core statements; the
compute layer (sweeps, solvers, the theorems of other games than Wythoff's)
loads only for the commands and the games that need it."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from sqlalchemy import bindparam, select

from catalog.compute import closed, theorems
from catalog.compute.modes import engine
from catalog.errors import TooMuchWork, Unprocessable
from catalog.games.definition import (
    Definition,
    check_n,
)
from catalog.service.store import (
    Store,
    check_own_limit,
    compute_limit,
    entry_game,
    entry_number,
    stored_game,
)
from catalog.store import positions as stored
from catalog.store.db import Reader
from catalog.store.ids import UnknownEntry, format_id
from catalog.store.tables import entries, extents

Progress = Callable[[int], None]
log = logging.getLogger(__name__)


def fill(store: Store, number: int, n: int, progress: Progress | None = None) -> None:
    """Make the store hold the entry's P-positions up to ``n``, within the
    store's limits (:func:`catalog.store.fill.fill`)."""
    # Imported here: the compute layer (sweeps, cost model) loads only when a
    # command computes, not when it reads what is stored.
    from catalog.store import fill as filler

    filler.fill(
        store.sessions,
        number,
        n,
        chunk_columns=store.settings.chunk_columns,
        progress=progress,
        limits=store.limits,
    )


def filled(
    store: Store,
    wid: str,
    n: int,
    progress: Progress | None = None,
) -> int:
    """Validate ``n`` and compute what is missing; return the entry number."""
    number, game = entry_game(store, wid)
    check_n(n, maximum=store.settings.max_compute_n)
    check_own_limit(n, "n", compute_limit(game, store.settings), number, game)
    fill(store, number, n, progress)
    return number


def _filled_positions(
    store: Store, wid: str, n: int, progress: Progress | None
) -> tuple[int, np.ndarray]:
    """Fill up to n, then read every P-position with x, y < n."""
    number = filled(store, wid, n, progress)
    with store.sessions() as session:
        return number, stored.read_positions(session, number, 0, n, n, store.cache)


def compute(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled_positions(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "count": len(found)}


def positions(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled_positions(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "positions": found.tolist()}


def positions_page(
    store: Store,
    wid: str,
    n: int,
    start: tuple[int, int] = (0, 0),
    limit: int = 10_000,
) -> dict[str, Any]:
    """A page of the P-positions with x, y < n, from ``start`` = (x, y) on.

    ``next`` is where the following page starts, or None on the last page.
    A stored range is read with one light query for the extent and one for
    the chunks' metadata (chunks themselves come from the process's cache).
    """
    number, page, after = positions_window(store, wid, n, start, limit)
    return {
        "id": format_id(number),
        "n": n,
        "positions": page.tolist(),
        "next": list(after) if after else None,
    }


def positions_window(
    store: Store,
    wid: str,
    n: int,
    start: tuple[int, int] = (0, 0),
    limit: int = 10_000,
) -> tuple[int, np.ndarray, tuple[int, int] | None]:
    """:func:`positions_page` as arrays, for pictures: the entry's number,
    the page's positions as a (k, 2) array and where the next page starts."""
    number = entry_number(store, wid)
    with store.reading() as connection:
        if stored.covers(connection, number, n):
            page, after = stored.read_page(
                connection, number, n, start, limit, store.cache
            )
        else:
            page = None
    if page is None:
        filled(store, wid, n)
        with store.reading() as connection:
            page, after = stored.read_page(
                connection, number, n, start, limit, store.cache
            )
    return number, page, after


def grundy_values(store: Store, wid: str, n: int) -> tuple[str, np.ndarray]:
    """The entry's ID and its Sprague–Grundy values ``g[x, y]`` for x, y < n,
    within the store's work budget (:func:`catalog.compute.cost.grundy_seconds`,
    which counts writing the values out too)."""
    from catalog.compute import cost
    from catalog.compute import grundy as sg

    n = check_n(n, maximum=sg.MAX_GRUNDY_N)
    number, game = entry_game(store, wid)
    if game.altered:
        raise Unprocessable(
            f"{format_id(number)} has alterations: an altered game fixes only P "
            "and N, so its Grundy values are not defined"
        )
    sg.check(game)
    budget = store.limits.budget
    seconds = cost.grundy_seconds(game, n)
    if budget is not None and seconds > budget:
        raise TooMuchWork(
            f"the Grundy values of {format_id(number)} up to n={n} need about "
            f"{seconds:.1f} s of computation (the estimate); the budget of a "
            f"request is {budget:g} s (WYTHOFF_INLINE_SECONDS)"
        )
    with store.limits.admitted(seconds):
        return format_id(number), sg.grundy(game, n)


def grundy_table(store: Store, wid: str, n: int) -> dict[str, Any]:
    """Sprague–Grundy values ``grundy[x][y]`` for x, y < n."""
    entry, table = grundy_values(store, wid, n)
    return {"id": entry, "n": n, "grundy": table.tolist()}


def grundy_json(store: Store, wid: str, n: int) -> str:
    """:func:`grundy_table` as JSON text, written without a Python list;
    computed once (:mod:`catalog.service.results`)."""
    from catalog.compute.grundy import MAX_GRUNDY_N
    from catalog.service.results import cached

    n = check_n(n, maximum=MAX_GRUNDY_N)
    number, game = entry_game(store, wid)

    def compute() -> bytes:
        return "".join(grundy_pieces(*grundy_values(store, wid, n))).encode()

    question = {"entry": number, "definition": game.key, "n": n}
    return cached(store, "grundy", question, compute, number).decode()


def grundy_pieces(entry: str, table: np.ndarray, rows: int = 256) -> Iterator[str]:
    """The document of :func:`grundy_table` as JSON text, ``rows`` rows of the
    table at a time: a table of 10^8 values is never a Python list."""
    from catalog.compute.grundy import json_rows

    n = table.shape[0]
    yield json.dumps({"id": entry, "n": n})[:-1] + ', "grundy": ['
    for x in range(0, n, rows):
        yield ("," if x else "") + json_rows(table, x, x + rows)
    yield "]}"


def work_needed(store: Store, wid: str, n: int) -> int:
    from catalog.store import fill as filler  # the compute layer, as in fill()

    number = entry_number(store, wid)
    with store.sessions() as session:
        return filler.work_needed(session, number, n)


def estimate(store: Store, wid: str, n: int) -> float:
    """Expected seconds to compute what the store lacks up to n."""
    from catalog.store import fill as filler  # the compute layer, as in fill()

    number = entry_number(store, wid)
    with store.sessions() as session:
        return filler.estimate(session, number, n)


#: Coordinates answered exactly without a table (Wythoff's Nim and its
#: altered games); the work grows with the number of digits.
MAX_EXACT_COORDINATE = 10**300


def _exact_is_p(
    store: Store, number: int, game: Definition, x: int, y: int
) -> dict[str, Any] | None:
    found = theorems.theorem_for(game)
    if found is not None:
        p, move = found.outcome(x, y)
        return {
            "id": format_id(number),
            "position": [x, y],
            "outcome": "P" if p else "N",
            "move_to": list(move) if move else None,
        }
    wythoff = closed.is_wythoff(game) or closed.is_ho_variant(game)
    if wythoff:
        solver = None
    else:
        # Imported here: the far-out solvers load only for the games that use them.
        from catalog.service.solvers import solver_for

        solver = solver_for(store, number, game, x, y, fill)
    if not wythoff and solver is None:
        return None
    if solver is None:
        label, to = closed.outcome(x, y)
    else:
        label = "P" if solver.is_p(x, y) else "N"
        to = None if label == "P" else solver.winning_move(x, y)
    return {
        "id": format_id(number),
        "position": [x, y],
        "outcome": label,
        "move_to": list(to) if to else None,
    }


#: The entry's key (for its definition, from the process's cache) and
#: extent: the one statement an exact answer needs, built once.
_KEY_AND_BOUNDS = (
    select(entries.c.key, extents.c.x_bound, extents.c.y_bound)
    .outerjoin(extents, extents.c.entry_id == entries.c.id)
    .where(entries.c.id == bindparam("number"))
)


def is_p(store: Store, wid: str, x: int, y: int) -> dict[str, Any]:
    """Outcome of (x, y), and a winning move (to a P-position) when it is N.

    Wythoff's Nim, Ho's variants, altered Wythoff games and Maharaja-type
    games whose dictionary closes are answered exactly for any size of pile,
    after one statement (the entry's key and extent; the definition comes
    from the process's cache). Otherwise a stored position is answered on
    the same connection (and the chunks' metadata; the chunks come from the
    process's cache); a missing one is computed first.
    """
    number = entry_number(store, wid)
    check_n(x, "x", maximum=MAX_EXACT_COORDINATE)
    check_n(y, "y", maximum=MAX_EXACT_COORDINATE)
    with store.reading() as connection:
        row = connection.execute(_KEY_AND_BOUNDS, {"number": number}).first()
        if row is None:
            raise UnknownEntry(f"no entry {format_id(number)}")
        game = stored_game(store, connection, number, row.key)[1]
        exact = _exact_kind(game)
        if not exact:
            found = _stored_box(store, connection, number, game, x, y, row)
    if exact:
        # Exact for any size of pile, in O(log) steps, when a theorem or a
        # closed dictionary answers; else (None) the table, as below.
        answer = _exact_is_p(store, number, game, x, y)
        if answer is not None:
            return answer
        with store.reading() as connection:
            row = connection.execute(_KEY_AND_BOUNDS, {"number": number}).first()
            found = _stored_box(store, connection, number, game, x, y, row)
    if found is None:
        fill(store, number, max(x, y) + 1)
        with store.reading() as connection:
            found = stored.read_positions(
                connection, number, 0, x + 1, y + 1, store.cache
            )
    return {
        "id": format_id(number),
        "position": [x, y],
        **_outcome(game, found, x, y),
    }


def _exact_kind(game: Definition) -> bool:
    """Is ``game`` of a kind whose outcomes a theorem (or a closed
    dictionary) may give for any size of pile?"""
    if closed.is_wythoff(game) or closed.is_ho_variant(game):
        return True
    if theorems.theorem_for(game) is not None:
        return True
    # Imported here: the theorems of the other kinds serve their games alone.
    from catalog.compute.altered import is_altered_wythoff
    from catalog.compute.dictionary import is_maharaja_type

    return is_altered_wythoff(game) or is_maharaja_type(game)


def _stored_box(
    store: Store,
    connection: Reader,
    number: int,
    game: Definition,
    x: int,
    y: int,
    bounds: Any,
) -> np.ndarray | None:
    """The stored P-positions with x' <= x and y' <= y (every option of
    (x, y) lies there), or None when the store does not hold them yet.
    ``bounds``: the entry's extent (``x_bound``, ``y_bound``; None without)."""
    limit = compute_limit(game, store.settings)
    check_own_limit(x, "x", limit - 1, number, game)
    check_own_limit(y, "y", limit - 1, number, game)
    bound = max(x, y) + 1
    x_bound, y_bound = (bounds.x_bound, bounds.y_bound) if bounds else (None, None)
    if x_bound is None or x_bound < bound or (y_bound is not None and y_bound < bound):
        return None
    return stored.read_positions(connection, number, 0, x + 1, y + 1, store.cache)


def _outcome(game: Definition, found: np.ndarray, x: int, y: int) -> dict[str, Any]:
    """``outcome`` and ``move_to`` of (x, y) from ``found``, every P-position
    with x' <= x and y' <= y: the first option (in the order of
    :func:`~catalog.compute.reference.options`) that is P when (x, y) is N.
    Positions are looked up as the integers x' * (y + 1) + y'."""
    from catalog.compute.reference import options  # an N-position's moves

    keys = found[:, 0] * (y + 1) + found[:, 1]
    here = x * (y + 1) + y
    at = int(np.searchsorted(keys, here))  # sorted by x then y: so are keys
    if at < len(keys) and int(keys[at]) == here:
        return {"outcome": "P", "move_to": None}
    if engine(game) == "subtraction":  # a ⋆'s options need its game's table
        from catalog.compute.kindsweeps import winning_move
        from catalog.compute.ptable import p_positions

        to = winning_move(game, found, x, y, p_positions)
        return {"outcome": "N", "move_to": list(to) if to else None}
    p_keys = set(keys.tolist())
    move = next(
        ([a, b] for a, b in options(game, x, y) if a * (y + 1) + b in p_keys), None
    )
    return {"outcome": "N", "move_to": move}


def adjoinable(i: int, j: int) -> dict[str, Any]:
    """Can (i, j) and (j, i) join Wythoff's Nim without changing its
    P-positions? Exact for any size; no database needed."""
    from catalog.compute.adjoinable import adjoinable as adjoinable_move

    return adjoinable_move(i, j).to_json()
