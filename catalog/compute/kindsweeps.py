"""The sweeps of the literature's rule kinds, with the interface of the
other resumable sweeps (``advance``, ``resume``), both held to a box
[0, x) x [0, height) (:data:`catalog.compute.modes.BOX_ENGINES`):

- :class:`ConeSweep`, cone games with both of Nim's rays: a-Wythoff and
  (s,t)-Wythoff by Fraenkel's theorems (A_n the mex, B_n = s·A_n + t·n,
  :mod:`catalog.compute.mex`), every other one by the compiled sparse sweep
  (:mod:`catalog.compute.conesweep`);
- :class:`BlockSweep`, blocking games with both of Nim's rays (other rays,
  single moves, alterations): the compiled sparse sweep of at most b + 1
  P-positions a column (:mod:`catalog.compute.blocksweep`);
- :class:`DenseSweep`, every other game of the new kinds (blocking, Euclid's
  game, cones without Nim's rays): counts of P options cell by cell
  (:mod:`catalog.compute.dense`).

Each computes its box whole: a box continued to the right is computed
again from column 0 (a few seconds at 10^7 for a cone game, and the dense
engine's box is at most :data:`~catalog.compute.modes.MAX_DENSE_N` wide),
and the store commits it whole, as it does every box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import numpy as np

from catalog.compute.theorems import NIM_RAYS, awythoff_parameter
from catalog.errors import TooMuchWork
from catalog.games.definition import Definition, DefinitionError
from catalog.kinds.cones import Cone


def cone_rows(cones: tuple[Cone, ...]) -> np.ndarray:
    """The engines' rows [s1, t1, s2, t2, has_hi, mod, mirror]: a symmetric
    cone is two rows, the second mirrored."""
    rows = []
    for cone in cones:
        s2, t2 = cone.hi if cone.hi is not None else (0, 0)
        row = [*cone.lo, s2, t2, int(cone.hi is not None), cone.mod]
        rows.append([*row, 0])
        if cone.symmetric:
            rows.append([*row, 1])
    return np.array(rows, dtype=np.int64).reshape(-1, 7)


def st_parameters(game: Definition) -> tuple[int, int] | None:
    """(s, t) when ``game`` is (s,t)-Wythoff with s >= 2 (Nim's rays and the
    symmetric cone 0 < k <= l < s·k + t, nothing else), else None (s = 1 is
    t-Wythoff, whose cone is a band)."""
    if game.kinds != {"rays", "cones"} or game.rays != NIM_RAYS:
        return None
    if len(game.cones) != 1:
        return None
    (cone,) = game.cones
    if cone.hi is None or cone.lo != (1, 0) or cone.mod != 1 or not cone.symmetric:
        return None
    s, t = cone.hi[0], cone.hi[1] + 1
    return (s, t) if s >= 2 and t >= 1 else None


def _pairs(cells: tuple[tuple[int, int], ...]) -> np.ndarray:
    return np.array(cells, dtype=np.int64).reshape(-1, 2)


class _Box:
    """A box [0, x) x [0, height) computed whole by :meth:`_compute`."""

    def __init__(self, game: Definition, height: int) -> None:
        self.game = game
        self.height = height
        self.x = 0

    @classmethod
    def resume(
        cls, game: Definition, positions: np.ndarray, x_bound: int, height: int
    ) -> Self:
        """The box continued to the right from column ``x_bound`` (the
        stored ``positions`` are not needed: the box is computed whole)."""
        sweep = cls(game, height)
        sweep.x = x_bound
        return sweep

    def _compute(self, side: int) -> np.ndarray:
        raise NotImplementedError

    def advance(
        self,
        x_end: int,
        progress: Callable[[int], None] | None = None,
        y_bound: int | None = None,
    ) -> np.ndarray:
        """The P-positions of the columns [self.x, x_end) below the height
        (and ``y_bound``)."""
        side = max(x_end, self.height)
        try:
            found = self._compute(side)
        except ValueError as exc:  # an engine's own limit, e.g. block overlaps
            raise DefinitionError(f"definition: {exc}") from None
        keep = (found[:, 0] >= self.x) & (found[:, 0] < x_end)
        keep &= found[:, 1] < min(self.height, y_bound or self.height)
        if progress is not None and x_end > self.x:
            progress(x_end - self.x)
        self.x = max(self.x, x_end)
        return found[keep]


class ConeSweep(_Box):
    """A box of a cone game with both of Nim's rays."""

    def _compute(self, side: int) -> np.ndarray:
        from catalog.compute import conesweep, mex

        game = self.game
        a = awythoff_parameter(game)
        if a is not None:
            return mex.beatty_mex(side, a)
        st = st_parameters(game)
        if st is not None:
            return mex.st_wythoff(side, *st)
        return conesweep.cone_sweep_p_positions(
            side,
            cone_rows(game.cones),
            rays=_pairs(game.rays),
            moves=_pairs(game.moves),
            forced_p=_pairs(game.forced_p),
            forced_n=_pairs(game.forced_n),
        )


class BlockSweep(_Box):
    """A box of a blocking game with both of Nim's rays."""

    def _compute(self, side: int) -> np.ndarray:
        from catalog.compute import blocksweep
        from catalog.compute.modes import MAX_BOX_BYTES

        game = self.game
        lay = blocksweep.layout(game.block, _pairs(game.rays), _pairs(game.moves))
        count = blocksweep.default_levels(lay)
        need = blocksweep.table_bytes(side, lay, count, len(game.forced_p))
        if need > MAX_BOX_BYTES:  # before anything is allocated
            raise TooMuchWork(
                f"n={side}: the blocking sweep's tables for this game would take "
                f"{need >> 20} MB, over the {MAX_BOX_BYTES >> 20} MB a box may take"
            )
        return blocksweep.block_sweep_p_positions(
            side,
            game.block,
            rays=_pairs(game.rays),
            moves=_pairs(game.moves),
            forced_p=_pairs(game.forced_p),
            forced_n=_pairs(game.forced_n),
            count=count,
        )


class DenseSweep(_Box):
    """A box of any game of the kinds the dense engine knows."""

    def _compute(self, side: int) -> np.ndarray:
        from catalog.compute.dense import dense_p_positions, table_bytes
        from catalog.compute.modes import MAX_BOX_BYTES
        from catalog.compute.ruleset import rules

        game = self.game
        kinds: dict[str, Any] = {
            "rays": _pairs(game.rays),
            "moves": _pairs(game.moves),
            "cones": cone_rows(game.cones),
            "euclid": "euclid" in game.kinds,
            "ho_restriction": "ho-restriction" in game.kinds,
        }
        need = table_bytes(side, rules(**kinds))
        if need > MAX_BOX_BYTES:  # before anything is allocated
            raise TooMuchWork(
                f"n={side}: the dense engine's tables for this game would take "
                f"{need >> 20} MB, over the {MAX_BOX_BYTES >> 20} MB a box may take"
            )
        return dense_p_positions(
            side,
            **kinds,
            block=game.block,
            forced_p=_pairs(game.forced_p),
            forced_n=_pairs(game.forced_n),
        )
