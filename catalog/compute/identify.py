"""Identify a game from its P-positions: the dual question, for any data.

The data is a set S of cells, every P-position with x, y < n (the *window*).
An *invariant* game is a set of moves (dx, dy) ≥ 0, the same everywhere on
the board: rays (every positive multiple of a step) and single moves. Inside
the window only moves with both components below n matter, and S is the
game's P-set there exactly when

* no move of the game joins two cells of S (S is *independent*), and
* every other cell of the window has a move into S (S is *absorbing*).

So the moves allowed at all are those that are no difference t − s of two
cells of S: the *maximal game* M* (:func:`maximal`). The data is the P-set of
some invariant game iff M* is absorbing. A ray is any step all of whose
multiples inside the window lie in M*, not only a primitive direction.

The smallest rule sets are a set cover: the cells outside S are the elements,
each ray or move of M* covers the cells it moves into S, and each costs one
(a move and its mirror image together when the data is symmetric).
:class:`Search` hands it to the CP-SAT solver of OR-Tools, adding the cover
rows lazily: it solves on the cells nearest the corner, checks the solution
on the whole window, adds the rows it misses and solves again, until the
solution covers everything (the optimum of a relaxation that is feasible is
optimal). Among the games of least size it prefers short steps, then single
moves over rays.

When no invariant game fits (or a smaller description exists), the *altered*
model also lets a cell of S be forced P (then moves may join it to S) and a
cell outside S be forced N (then it needs no move into S), each at a cost of
one (Hu, Sleator and Tsin's finitely many forced positions); every step of
the window may then be a ray or a move.

References: Duchêne, Fraenkel, Nowakowski and Rigo, "Extensions and
restrictions of Wythoff's game preserving its P positions", J. Combin.
Theory Ser. A 117 (2010); Larsson, Hegarty and Fraenkel, "Invariant and dual
subtraction games resolving the Duchêne–Rigo conjecture", Theoret. Comput.
Sci. 412 (2011) 729–735 (arXiv:1005.4162); docs/invariants/identify.md.

>>> data = Window.of([(0, 0), (1, 2), (2, 1), (3, 5), (5, 3)], 6)
>>> answer = identify(data)
>>> answer.invariant, [g.size for g in answer.games][:1], answer.exact
(True, [2], True)
>>> answer.games[0].definition["rays"]
[[0, 1], [1, 0], [1, 1]]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from catalog.compute import smallest
from catalog.compute.maximal import (
    MAX_IDENTIFY_N,
    Cell,
    Game,
    Maximal,
    Window,
    covered_by,
    differences,
    maximal,
    reproduces,
    step_grid,
)
from catalog.errors import BadInput
from catalog.games.definition import MAX_RULES

#: The model's pieces (:mod:`catalog.compute.maximal`), named here too: the
#: callers of identification find them beside it.
__all__ = [
    "MAX_IDENTIFY_LIMIT",
    "MAX_IDENTIFY_N",
    "Answer",
    "Cell",
    "Game",
    "Maximal",
    "Window",
    "covered_by",
    "differences",
    "identify",
    "maximal",
    "reproduces",
    "step_grid",
]

#: Most rule sets (and altered games) one answer lists.
MAX_IDENTIFY_LIMIT = 50


@dataclass
class Answer:
    """What the data says: the maximal game, the smallest rule sets, the
    smallest altered games, and whether every least size was proven."""

    window: Window
    maximal: Maximal
    games: list[Game] = field(default_factory=list)
    altered: list[Game] = field(default_factory=list)
    exact: bool = True
    #: A proven lower bound of the least size, where the search stopped early.
    bound: int | None = None
    #: What the answer cannot say, in words.
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def invariant(self) -> bool:
        return self.maximal.absorbing


def _literature(window: Window) -> list[Game]:
    """The literature's games with the data as P-positions, sized as rule
    sets are: a ray or move and its mirror count one together for symmetric
    data, a cone one."""
    from catalog.compute.recognise import literature_games

    out = []
    for rays, cones in literature_games(window.grid):
        count = len(rays)
        if window.symmetric:
            count = len({tuple(sorted(r)) for r in rays})
        out.append(Game(rays=rays, moves=(), size=count + len(cones), cones=cones))
    return sorted(out, key=lambda g: g.size)


#: Quadratic irrationals named in a note on Beatty data.
NAMED_ALPHAS = 8
#: Pairs Beatty data needs before the note names its α: with fewer, the
#: interval is wide and holds hundreds of small quadratic irrationals.
BEATTY_PAIRS = 8


def _beatty_notes(window: Window) -> list[str]:
    """When the data are complementary Beatty pairs with (0, 0), the
    interval of α that fits and its simplest quadratic irrationals
    (:mod:`catalog.compute.beattyfit`): by Larsson, Hegarty and Fraenkel
    each is the P-set of ⋆ of its Beatty subtraction game."""
    from catalog.compute.beattyfit import recognise_beatty

    match = recognise_beatty(window.grid)
    if match is None or match.fit.pairs < BEATTY_PAIRS:
        return []
    fit = match.fit
    ends = (
        ("[" if fit.lo_closed else "(")
        + f"{fit.lo}, {fit.hi}"
        + ("]" if fit.hi_closed else ")")
    )
    named = ", ".join(str(a) for a in match.alphas[:NAMED_ALPHAS])
    more = len(match.alphas) - NAMED_ALPHAS
    text = (
        f"these are the complementary Beatty pairs (⌊kα⌋, ⌊kα/(α−1)⌋) with (0, 0) "
        f"for every irrational α in {ends}"
    )
    if named:
        text += f"; quadratic irrationals there: {named}" + (
            f" and {more} more" if more > 0 else ""
        )
        text += (
            " (each the P-set of ⋆ of its Beatty subtraction game, "
            "Larsson–Hegarty–Fraenkel 2011)"
        )
    for alpha, a in match.awythoff:
        text += f"; {alpha} is {a}-Wythoff's α"
    return [text]


def identify(window: Window, limit: int = 5, seconds: float | None = None) -> Answer:
    """Everything the data says about the games that have it as P-set.

    Parameters
    ----------
    window : Window
        The data.
    limit : int
        Most rule sets, and most altered games, to list (all of least size).
    seconds : float, optional
        Stop the searches after this long; the answer then says
        ``exact=False`` and gives the bound it proved.
    """
    if not 1 <= limit <= MAX_IDENTIFY_LIMIT:
        raise BadInput(f"limit: from 1 to {MAX_IDENTIFY_LIMIT}")
    start = time.monotonic()
    # A tenth of the time (at most a second) kept for what follows the
    # searches: simplifying the games found, checking them, the answer.
    allowed = seconds if seconds is not None else 24 * 3600.0
    deadline = start + allowed - min(1.0, 0.1 * allowed)
    answer = Answer(window, maximal(window))
    below: int | None = None
    if answer.invariant:
        # The literature's games first: a cone game found bounds the search
        # of rays and moves to games as small.
        known = _literature(window)
        answer.notes += _beatty_notes(window)
        cap = known[0].size + 1 if known else None
        # The rule sets first; the altered games below them get what is left,
        # and at least the last quarter.
        first = start + 0.75 * (deadline - start)
        found = smallest.Search(window, answer.maximal, False, first).smallest(
            limit, first, below=cap
        )
        # Rays and moves as small as a literature game say it in the
        # catalog's first words (Wythoff's rays, not a cone that agrees
        # with them in a small window); else the literature's games.
        answer.games = found.games or known[:limit]
        answer.exact, answer.bound = found.exact, found.bound
        if known and found.exact:
            answer.bound = None
        if answer.games:
            below = answer.games[0].size
        elif found.exact and not known:
            answer.notes.append(
                f"an invariant game has these P-positions, but none with at most "
                f"{MAX_RULES} rays and {MAX_RULES} single moves (a definition's "
                "limit): the altered games below can say it in fewer"
            )
        else:
            answer.seconds = time.monotonic() - start
            return answer
    if below != 0:
        found = smallest.Search(window, answer.maximal, True, deadline).smallest(
            limit, deadline, below=below
        )
        answer.altered = found.games
        answer.exact = answer.exact and found.exact
        if answer.bound is None:
            answer.bound = found.bound
    answer.seconds = time.monotonic() - start
    return answer
