"""The smallest rule sets (and altered games) that give a window's P-set.

A set cover solved exactly by CP-SAT (OR-Tools), with its rows added lazily;
see :mod:`catalog.compute.identify` for the model in words
(the data and the maximal game: :mod:`catalog.compute.maximal`). The variables
are *orbits*: a step (or a forced cell) alone, or with its mirror image when
the data is symmetric, each costing one.

Why CP-SAT: measured on Wythoff's Nim, Maharaja Nim and random Linear
Nimhoff games at n = 60 and 200, with the whole cover written out, CP-SAT
solved each in 0.01 to 0.2 s where HiGHS's MIP took 0.02 to 2.8 s; it also
proves infeasibility (no altered game below a size) directly, and takes the
implications of forced cells as clauses (``docs/invariants/identify.md``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from catalog.compute.maximal import (
    Game,
    Maximal,
    Window,
    _long,
    covered_by,
    differences,
    reproduces,
)
from catalog.games.definition import MAX_RULES

#: Cover rows added to the model at once, at least (the nearest the corner).
_BATCH = 512

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import IntVar

Key = tuple[str, int, int]  # ("r" | "m" | "P" | "N", a, b), an orbit's representative

#: A rule that joins more cells of S than this forces them in one linear row
#: rather than one implication each (1.1 million implications took 6 s to
#: write for 10 % random cells at n = 200).
_IMPLIED = 32


@dataclass
class Found:
    """The games of least size found, and whether that size is proven."""

    games: list[Game]
    exact: bool
    bound: int | None = None


class Search:
    """One cover model over a window: ``altered`` lets cells be forced and
    every step of the window be a rule; otherwise only the steps of M* are
    rules (a ray where all its multiples are allowed, else a move)."""

    def __init__(
        self,
        window: Window,
        maximal: Maximal,
        altered: bool,
        deadline: float | None = None,
    ) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.window = window
        self.n = window.n
        self.grid = window.grid
        self.symmetric = window.symmetric
        self.maximal = maximal
        self.altered = altered
        self.deadline = deadline if deadline is not None else float("inf")
        self.long = _long(self.n)
        self.s_cells = window.cells
        self.model = cp_model.CpModel()
        self.vars: dict[Key, IntVar] = {}
        self.rows: set[tuple[int, int]] = set()
        self.bound: int | None = None
        # size == (every variable) + tail: a new batch of variables extends the
        # chain (tail == batch + new tail), so bounds on ``size`` hold for the
        # variables that later rows create too; minimizing drives tail to 0.
        # The same for the rays and the single moves each (a mirror pair is
        # two of them), which a definition holds at most MAX_RULES of.
        self.limit = 2 * self.n * self.n + 2
        self.tails: dict[str, IntVar] = {}
        self.size = self._counter("size")
        for kind in "rm":
            self.model.add(self._counter(kind) <= MAX_RULES)
        self.fresh: list[tuple[Key, IntVar]] = []
        self._index_rules()
        outside = np.argwhere(~self.grid)
        order = np.lexsort((outside[:, 0], outside.sum(axis=1)))
        self._add_rows(outside[order[:_BATCH]])

    # -- variables ---------------------------------------------------------

    def _orbit(self, kind: str, a: int, b: int) -> Key:
        if self.symmetric and (b, a) < (a, b):
            a, b = b, a
        return (kind, a, b)

    def _var(self, key: Key) -> IntVar:
        var = self.vars.get(key)
        if var is None:
            var = self.vars[key] = self.model.new_bool_var(f"{key[0]}{key[1]}_{key[2]}")
            self.fresh.append((key, var))
            if self.altered and key[0] in "rm":
                # Every cell of S the rule joins to S must be forced P: all at
                # once, so that the relaxation knows what a rule costs.
                joined = self._joined(key)
                forced = [self._var(self._orbit("P", *t)) for t in joined]
                if len(forced) <= _IMPLIED:
                    for other in forced:
                        self.model.add_implication(var, other)
                else:  # the same in one row: a rule joining many is seldom taken
                    self.model.add(self.cp.LinearExpr.sum(forced) >= len(forced) * var)
        return var

    def _joined(self, key: Key) -> list[tuple[int, int]]:
        """The cells t of S from which the rule ``key`` moves into S: one
        shifted AND of the grid per step of the rule (n² bits each)."""
        n, grid = self.n, self.grid
        kind, a, b = key
        joined = np.zeros_like(grid)
        for u, v in {(a, b), (b, a)} if self.symmetric else {(a, b)}:
            k = 1
            while k * u < n and k * v < n:
                du, dv = k * u, k * v
                joined[du:, dv:] |= grid[du:, dv:] & grid[: n - du, : n - dv]
                if kind == "m":
                    break
                k += 1
        return [(int(x), int(y)) for x, y in np.argwhere(joined)]

    def _members(self, key: Key) -> int:
        """How many rules (or cells) the orbit ``key`` stands for."""
        return 2 if self.symmetric and key[1] != key[2] else 1

    def _counter(self, name: str) -> IntVar:
        total = self.model.new_int_var(0, self.limit, name)
        self.tails[name] = self.model.new_int_var(0, self.limit, f"{name}-tail")
        self.model.add(total == self.tails[name])
        return total

    def _extend(self) -> None:
        """Count the variables made since the last call into the counters."""
        if not self.fresh:
            return
        for name, tail in self.tails.items():
            terms = [
                (v, 1 if name == "size" else self._members(k))
                for k, v in self.fresh
                if name == "size" or k[0] == name
            ]
            if terms:
                # Not tail.proto.domain[-1]: OR-Tools 9.15's repeated fields
                # read index -1 as 0, which made every later tail 0 and so
                # kept every rule a later row brought out of the games.
                new = self.model.new_int_var(0, self.limit, f"{name}-tail")
                variables, weights = zip(*terms, strict=True)
                self.model.add(
                    tail
                    == self.cp.LinearExpr.weighted_sum(list(variables), list(weights))
                    + new
                )
                self.tails[name] = new
        self.fresh = []

    def _weight(self, key: Key) -> int:
        """Short steps first, then single moves before rays; forced cells near
        the corner first."""
        kind, a, b = key
        return 4 * (a + b) + {"m": 0, "r": 1, "N": 2, "P": 3}[kind]

    # -- rows --------------------------------------------------------------

    def _coverers(self, x: int, y: int) -> set[Key]:
        """The rules that take (x, y) into S: for each cell s ≤ (x, y) of S,
        the move d = (x, y) − s and the rays through d (in the invariant model
        only those of M*, and the move only where its ray is not allowed)."""
        n, s = self.n, self.s_cells
        below = s[(s[:, 0] <= x) & (s[:, 1] <= y)]
        d = (x - below[:, 0]) * n + (y - below[:, 1])
        d = d[d > 0]
        moves = d[self._move_ok[d]]
        lo = np.searchsorted(self._through, d, side="left")
        hi = np.searchsorted(self._through, d, side="right")
        counts = hi - lo
        starts = np.repeat(lo - np.cumsum(counts) + counts, counts)
        rays = self._rays_through[starts + np.arange(counts.sum())]
        if self.symmetric:
            moves, rays = self._mirror_min(moves), self._mirror_min(rays)
        keys = {("m", int(c) // n, int(c) % n) for c in np.unique(moves)}
        keys.update(("r", int(c) // n, int(c) % n) for c in np.unique(rays))
        return keys

    def _mirror_min(self, codes: np.ndarray) -> np.ndarray:
        n = self.n
        return np.minimum(codes, (codes % n) * n + codes // n)

    def _index_rules(self) -> None:
        """Which steps are moves, and for each step the rays through it."""
        n = self.n
        if self.altered:
            ray_ok = self.long.copy()
            move_ok = np.ones((n, n), dtype=bool)
        else:
            ray_ok = self.maximal.ray_ok.copy()
            move_ok = self.maximal.allowed & ~ray_ok
        ray_ok[0, 0] = move_ok[0, 0] = False
        self._move_ok = move_ok.ravel()
        a, b = np.nonzero(ray_ok)
        steps, rays = [], []
        for k in range(1, n):
            inside = (k * a < n) & (k * b < n)
            if not inside.any():
                break
            a, b = a[inside], b[inside]
            steps.append(k * a * n + k * b)
            rays.append(a * n + b)
        through = np.concatenate(steps) if steps else np.zeros(0, np.int64)
        ray = np.concatenate(rays) if rays else np.zeros(0, np.int64)
        order = np.argsort(through, kind="stable")
        self._through, self._rays_through = through[order], ray[order]

    def _add_rows(self, cells: np.ndarray) -> None:
        for x, y in cells.tolist():
            if time.monotonic() > self.deadline:
                break  # the model stays a relaxation: the next check adds more
            rep = (min(x, y), max(x, y)) if self.symmetric else (x, y)
            if rep in self.rows:
                continue
            self.rows.add(rep)
            terms = [self._var(key) for key in sorted(self._coverers(x, y))]
            if self.altered:
                terms.append(self._var(self._orbit("N", x, y)))
            self.model.add_bool_or(terms)
        self._extend()

    # -- solving -----------------------------------------------------------

    def _game(self, keys: list[Key]) -> Game:
        rays: set[tuple[int, int]] = set()
        moves: set[tuple[int, int]] = set()
        forced = {"P": set(), "N": set()}  # type: dict[str, set[tuple[int, int]]]
        for kind, a, b in keys:
            pair = {(a, b), (b, a)} if self.symmetric else {(a, b)}
            {"r": rays, "m": moves}.get(kind, forced.get(kind, set())).update(pair)
        return Game(
            rays=tuple(sorted(rays)),
            moves=tuple(sorted(moves)),
            forced_p=tuple(sorted(forced["P"])),
            forced_n=tuple(sorted(forced["N"])),
            size=len(keys),
        )

    def _check(self, keys: list[Key]) -> bool:
        """Does the solution hold on the whole window? If not, add the rows of
        the cells it misses (as far as the deadline lets) for the next solve."""
        game = self._game(keys)
        done = self.grid.copy()
        for x, y in game.forced_n:
            done[x, y] = True
        done |= _cover_game(self.grid, game)
        missing = np.argwhere(~done)
        if not len(missing):
            return True
        # A solution that misses cells is no game, even when past the deadline
        # no row can be added for them: the next solve is then not started.
        order = np.lexsort((missing[:, 0], missing.sum(axis=1)))
        before = len(self.rows)
        self._add_rows(missing[order[: max(_BATCH, len(missing) // 4)]])
        if len(self.rows) == before and time.monotonic() <= self.deadline:
            # Each missed cell has its row, which the solution meets: the rows
            # and the game's rules disagree. Solving again would loop.
            raise RuntimeError("identify: a solution meets every row and misses cells")
        return False

    def _solve(
        self, weighted: bool, deadline: float, hint: list[Key] | None = None
    ) -> tuple[str, list[Key]]:
        """Minimize the size (or, ``weighted``, the steps' lengths at that
        size), adding what the solutions miss until one holds on the whole
        window: ("optimal" | "infeasible" | "stopped", the solution). A
        weighted search that runs out of time keeps its best solution so far
        ("feasible"): the order among games of one size is a preference."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "stopped", []
            terms = self.vars.items()
            self.model.clear_hints()
            if hint is not None:
                chosen = set(hint)
                for k, v in terms:
                    self.model.add_hint(v, k in chosen)
            weights = [self._weight(k) if weighted else 1 for k in self.vars]
            self.model.minimize(
                self.cp.LinearExpr.weighted_sum(list(self.vars.values()), weights)
            )
            solver = self.cp.CpSolver()
            # A margin for writing the model out and reading the answer back.
            solver.parameters.max_time_in_seconds = max(0.01, 0.95 * left - 0.05)
            # One worker, core-based: on covers with large cells of S (Box(8, 13)
            # at n = 60) it proves in 0.3 s what the default search of one or
            # two workers does not prove in a minute; one worker keeps it
            # deterministic and off the other core.
            solver.parameters.num_workers = 1
            solver.parameters.optimize_with_core = not weighted
            status = solver.solve(self.model)
            if status == self.cp.INFEASIBLE:
                return "infeasible", []
            found = status == self.cp.OPTIMAL or (
                weighted and status == self.cp.FEASIBLE
            )
            if not found:
                if not weighted:
                    self.bound = int(np.ceil(solver.best_objective_bound - 1e-6))
                return "stopped", []
            keys = [k for k, v in self.vars.items() if solver.boolean_value(v)]
            if self._check(keys):
                return "optimal" if status == self.cp.OPTIMAL else "feasible", keys

    def smallest(
        self,
        limit: int,
        deadline: float,
        below: int | None = None,
    ) -> Found:
        """Up to ``limit`` games of least size (size < ``below`` if given), the
        shortest steps first as far as time allows."""
        if below is not None:
            # In the altered model a game below the least invariant size must
            # force a cell: rules alone that join no two cells of S are an
            # invariant game.
            self.model.add(self.size <= below - 1)
        status, first = self._solve(False, deadline)
        if status != "optimal":
            stopped = status == "stopped"
            return Found([], exact=not stopped, bound=self.bound if stopped else None)
        self.model.add(self.size <= len(first))
        games: list[Game] = []
        seen: set[str] = set()

        def keep(keys: list[Key]) -> None:
            game = simplify(self.window, self._game(keys))
            if repr(game.definition) not in seen:
                seen.add(repr(game.definition))
                games.append(game)

        for _ in range(4 * limit):
            if len(games) >= limit:
                break
            # Each search for the next game gets a share of the time left.
            left = deadline - time.monotonic()
            share = time.monotonic() + max(0.25, left / (2 * (limit - len(games))))
            status, keys = self._solve(True, min(deadline, share), hint=first)
            if status == "stopped":
                # The plain core search finds another game of least size faster
                # than the weighted one proves the shortest.
                status, keys = self._solve(False, deadline)
            if status in ("infeasible", "stopped"):
                break
            keep(keys)
            chosen = [self.vars[k] for k in keys]
            self.model.add(self.cp.LinearExpr.sum(chosen) <= len(chosen) - 1)
        if len(games) < limit:
            keep(first)
        return Found(games, exact=True)


def _cover_game(grid: np.ndarray, game: Game) -> np.ndarray:
    return covered_by(grid, game)


def simplify(window: Window, game: Game) -> Game:
    """Each ray that its single step can replace, replaced (longest first): a
    single move claims less about the game outside the window. Not past
    MAX_RULES single moves: the game must stay a definition."""
    for ray in sorted(game.rays, key=lambda r: (-(r[0] + r[1]), r)):
        if ray not in game.rays:
            continue
        pair = {ray, ray[::-1]} if window.symmetric else {ray}
        pair &= set(game.rays)
        if len(set(game.moves) | pair) > MAX_RULES:
            continue  # a definition holds at most MAX_RULES single moves
        trial = Game(
            rays=tuple(r for r in game.rays if r not in pair),
            moves=tuple(sorted(set(game.moves) | pair)),
            forced_p=game.forced_p,
            forced_n=game.forced_n,
            size=game.size,
        )
        if reproduces(window, trial):
            game = trial
    return game


__all__ = ["Found", "Search", "differences", "simplify"]
