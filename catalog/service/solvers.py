"""Exact outcomes for any size of pile, from a solver kept per process:
altered Wythoff games by their saturated state (:mod:`catalog.compute.farout`),
Maharaja-type games by the dictionary read off their stored table
(:mod:`catalog.compute.wordfarout`).

Apart from :mod:`.positions`, which imports this module only for a game
that needs it: Wythoff's Nim and Ho's variants are answered in closed form,
and reading a stored entry loads neither solver. The table a dictionary is
read from is filled by the ``fill`` that module passes in: this module sits
below it and never imports it back.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from catalog.compute.altered import is_altered_wythoff, saturation
from catalog.compute.dictionary import MAHARAJA_MOVES, is_maharaja_type
from catalog.compute.farout import FarOut
from catalog.compute.wordfarout import (
    OBSERVED_N,
    PROVED_N,
    Solved,
    WordFarOut,
    solve,
)
from catalog.games.definition import Definition
from catalog.service.store import Store
from catalog.store import positions as stored


@lru_cache(maxsize=8)
def _far_out(game: Definition) -> FarOut:
    """The saturated state of an altered Wythoff game, kept per process: a
    few MB for the seeds, about 40 MB for an alteration at column 10^6."""
    return FarOut(saturation(game))


#: Dictionary solvers of Maharaja-type games (or None: no dictionary closes),
#: kept per process by the game: about 4 MB each, and the descent's tables
#: as queries need them (some 20 MB once a pile near 10^100 was asked).
_SOLVED: OrderedDict[Definition, Solved | None] = OrderedDict()
_SOLVED_KEPT = 8

#: Makes the store hold an entry's P-positions up to n (the store's fill,
#: within the request's limits: :func:`catalog.service.positions.fill`).
Fill = Callable[[Store, int, int], None]


def _word_far_out(
    store: Store, number: int, game: Definition, fill: Fill
) -> Solved | None:
    """The game's dictionary solver, built from its stored table: Maharaja
    Nim's from its first :data:`PROVED_N` columns (the paper's words), a
    (k,l)-Maharaja game's from :data:`OBSERVED_N` columns. The table is
    filled through the store, so the request's work budget holds and the
    columns stay stored for the next process."""
    if game in _SOLVED:
        _SOLVED.move_to_end(game)
        return _SOLVED[game]
    n = PROVED_N if game.moves == MAHARAJA_MOVES else OBSERVED_N
    fill(store, number, n)
    with store.reading() as connection:
        table = stored.read_positions(connection, number, 0, n, n, store.cache)
    solved = solve(game.moves, table, n)
    _SOLVED[game] = solved
    while len(_SOLVED) > _SOLVED_KEPT:
        _SOLVED.popitem(last=False)
    return solved


def solver_for(
    store: Store, number: int, game: Definition, x: int, y: int, fill: Fill
) -> FarOut | WordFarOut | None:
    """An exact solver for any size of pile, when the game has one and the
    position needs it: altered Wythoff games always (it is cheap), a
    Maharaja-type game only past the table its dictionary is read from
    (below it the table answers, as for any game); ``fill`` fills the
    table the dictionary is read from."""
    if is_altered_wythoff(game):
        return _far_out(game)
    if not is_maharaja_type(game):
        return None
    if max(x, y) < (PROVED_N if game.moves == MAHARAJA_MOVES else OBSERVED_N):
        return None
    solved = _word_far_out(store, number, game, fill)
    return solved.solver if solved is not None else None
