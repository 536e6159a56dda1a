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

import json
import time
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from catalog.compute.maximal import (
    MAX_IDENTIFY_N,
    Cell,
    Game,
    Maximal,
    Window,
    _long,
    covered_by,
    differences,
    maximal,
    reproduces,
    step_grid,
)
from catalog.errors import BadInput
from catalog.games.definition import MAX_RULES, canonicalize
from catalog.kinds import size as rule_size

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
        game = Game(rays=rays, moves=(), cones=cones)
        size = rule_size(canonicalize(game.definition), window.symmetric)
        out.append(Game(rays=rays, moves=(), size=size, cones=cones))
    return sorted(out, key=lambda g: g.size)


#: Quadratic irrationals named in a note on Beatty data.
NAMED_ALPHAS = 8
#: Pairs Beatty data needs before its α are named and ⋆ of their Beatty
#: games proposed: with fewer, the interval is wide and holds hundreds of
#: small quadratic irrationals, none more likely than another.
BEATTY_PAIRS = 8
#: The bounds of the quadratic irrationals proposed on Beatty data, as the
#: notes and the docs state them
#: (:func:`~catalog.compute.beattyfit.quadratic_irrationals_in`).
BOUNDS = (
    "(p + q√d)/r with d square-free, 2 ≤ d ≤ {d}, 1 ≤ r ≤ {r}, 1 ≤ |q| ≤ {q}, "
    "and a-Wythoff's α_a for a ≤ {a}"
)


def _bounds() -> str:
    from catalog.compute import beattyfit

    return BOUNDS.format(
        d=beattyfit.MAX_D, r=beattyfit.MAX_R, q=beattyfit.MAX_Q, a=beattyfit.MAX_A
    )


def _star_of_beatty(alpha: str) -> Game:
    """⋆ of the Beatty game of α: one rule. Written with the keys every
    proposed game has (``rays``, ``moves``, ``special``), empty."""
    definition = {"rays": [], "moves": [], "special": [], "star": {"beatty": alpha}}
    return Game(rays=(), moves=(), size=1, written=json.dumps(definition))


def _awythoff(a: int, symmetric: bool) -> Game:
    """a-Wythoff (Nim's rays and the cone |k − l| < a; a = 1 is Wythoff's
    Nim), in its canonical rays and cones."""
    from catalog.compute.recognise import NIM

    game = canonicalize({"rays": NIM, "cones": [{"lo": [1, 1 - a], "hi": [1, a - 1]}]})
    return Game(
        rays=game.rays,
        moves=game.moves,
        cones=game.cones,
        size=rule_size(game, symmetric),
    )


def beatty_games(window: Window, limit: int) -> tuple[list[Game], list[str]]:
    """The games Beatty data proposes, and the note that says why.

    When the data are complementary Beatty pairs with (0, 0)
    (:func:`~catalog.compute.beattyfit.recognise_beatty`), with at least
    :data:`BEATTY_PAIRS` pairs: for each quadratic irrational α with small
    coefficients in the interval of α that fits, a-Wythoff's α first, then
    simplest first, ⋆ of the Beatty game of α (one rule), followed by
    a-Wythoff where α is its α_a; at most ``limit`` games. Each is checked
    by a theorem, not computed: by Larsson, Hegarty and Fraenkel the
    P-positions of ⋆ of the Beatty game of α are the Beatty pairs of α, and
    by Fraenkel those of a-Wythoff are the Beatty pairs of α_a; the Beatty
    pairs of α below n are computed exactly and equal the data
    (:func:`~catalog.compute.beattyfit.gives_data`). With fewer pairs the
    note alone says what fits; with other data, nothing.
    """
    from catalog.compute.beattyfit import awythoff_of, recognise_beatty

    match = recognise_beatty(window.grid)
    if match is None or not match.fit.pairs:  # (0, 0) alone: no pair to fit
        return [], []
    fit = match.fit
    text = (
        f"these are the complementary Beatty pairs (⌊kα⌋, ⌊kα/(α−1)⌋) with (0, 0) "
        f"for every irrational α in {fit}"
    )
    if fit.pairs < BEATTY_PAIRS:
        return [], [
            text + f": {fit.pairs} pairs, fewer than {BEATTY_PAIRS}, leave too "
            "many α to name; ⋆ of the Beatty game of any of them (one rule) has "
            "these P-positions (Larsson–Hegarty–Fraenkel 2011), and none is proposed"
        ]
    named = ", ".join(str(a) for a in match.alphas[:NAMED_ALPHAS])
    more = len(match.alphas) - NAMED_ALPHAS
    if named:
        text += f"; {len(match.alphas)} quadratic irrationals {_bounds()} are there"
        text += f": {named}" + (f" and {more} more" if more > 0 else "")
    else:
        text += f"; no quadratic irrational {_bounds()} is there"
    # a-Wythoff's α first: the catalog's games; then the simplest.
    alphas = sorted(match.alphas, key=lambda alpha: awythoff_of(alpha) is None)
    games: list[Game] = []
    for alpha in alphas:
        if len(games) >= limit:
            break
        games.append(_star_of_beatty(str(alpha)))
        a = awythoff_of(alpha)
        if a is not None:
            games.append(_awythoff(a, window.symmetric))
    games = games[:limit]
    if games:
        stars = sum(g.written is not None for g in games)
        text += (
            f"; the games list ⋆ of the Beatty game of the first {stars} (one rule "
            "each), proven without computing them: by Larsson–Hegarty–Fraenkel's "
            "theorem (2011) its P-positions are the Beatty pairs of α, computed "
            "exactly here and equal to the data below n"
        )
    for alpha, a in match.awythoff:
        name = "Wythoff's Nim's α (a = 1)" if a == 1 else f"{a}-Wythoff's α"
        text += f"; {alpha} is {name}"
    if any(g.written is None for g in games):
        text += (
            ", listed too: the P-positions of a-Wythoff are the Beatty pairs "
            "of α_a (Fraenkel 1982)"
        )
    return games, [text]


def rules_of_one(window: Window, found: Maximal) -> list[Game]:
    """Every game of rays and single moves with at most one rule (a rule
    and its mirror image together, for symmetric data) whose P-positions
    are the data, lightest first: the least size of a rule set when it is
    0 or 1, found without the solver.

    Some rule takes the first cell c outside S (nearest the corner) into
    S, so its step is c − s for a cell s of S below c, or a ray through
    it: a handful of candidates, each checked by :func:`reproduces`. A
    ray whose single step (a move) also gives the data is left out, as the
    solver's games leave it (:func:`catalog.compute.smallest.simplify`).
    """
    grid = window.grid
    if grid.all():
        return [Game(rays=(), moves=(), size=0)]
    outside = np.argwhere(~grid)
    cx, cy = (int(v) for v in outside[np.lexsort((outside[:, 0], outside.sum(1)))[0]])
    steps = {
        (cx - int(sx), cy - int(sy)) for sx, sy in window.cells if sx <= cx and sy <= cy
    }
    long = _long(window.n)
    games: dict[tuple[str, Cell], Game] = {}
    for a, b in sorted(steps):
        for k in range(1, max(a, b) + 1):
            if a % k or b % k:
                continue
            step = (a // k, b // k)
            rule = {step, step[::-1]} if window.symmetric else {step}
            kinds = ["rays"] if k > 1 else ["moves", "rays"]
            for kind in kinds:
                if kind == "rays" and not long[step]:
                    continue  # one multiple in the window: the move
                game = Game(
                    rays=tuple(sorted(rule)) if kind == "rays" else (),
                    moves=tuple(sorted(rule)) if kind == "moves" else (),
                    size=1,
                )
                if reproduces(window, game):
                    games[
                        (kind, min(step, step[::-1]) if window.symmetric else step)
                    ] = game
    kept = [
        g
        for (kind, step), g in games.items()
        if kind == "moves" or ("moves", step) not in games
    ]
    return sorted(
        kept,
        key=lambda g: (
            sum(4 * (a + b) + 1 for a, b in g.rays)
            + sum(4 * (a + b) for a, b in g.moves)
        ),
    )


def _solver() -> tuple[ModuleType, float]:
    """:mod:`catalog.compute.smallest` and the seconds its import took:
    OR-Tools takes a second or more to import on a loaded machine, which is
    not the search's time. Imported only when a search needs it (Beatty data
    needs none); the web app imports it at start."""
    begun = time.monotonic()
    from catalog.compute import smallest

    return smallest, time.monotonic() - begun


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
    answer = Answer(window, maximal(window))
    beatty: list[Game] = []
    if answer.invariant:
        beatty, notes = beatty_games(window, limit)
        answer.notes += notes
    if beatty:
        # ⋆ of a Beatty game is one rule: the least size is 1 unless one rule
        # set of rays and moves is as small (found without the solver), and
        # no altered game is smaller than 1 (the empty game, every cell P,
        # would be an invariant game of size 0).
        few = rules_of_one(window, answer.maximal)
        answer.games = (few if few and few[0].size == 0 else few + beatty)[:limit]
        answer.seconds = time.monotonic() - start
        return answer
    smallest, spent = _solver()
    # A tenth of the time (at most a second) kept for what follows the
    # searches: simplifying the games found, checking them, the answer.
    allowed = seconds if seconds is not None else 24 * 3600.0
    deadline = start + spent + allowed - min(1.0, 0.1 * allowed)
    below: int | None = None
    if answer.invariant:
        # The literature's games first: a cone game found bounds the search
        # of rays and moves to games as small.
        known = _literature(window)
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
