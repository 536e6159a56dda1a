"""The sweeps of the literature's rule kinds, with the interface of the
other resumable sweeps (``advance``, ``resume``): :class:`ConeSweep` for
cone games with Nim's two rays (whole columns), :class:`DenseSweep` for
every other game of the new kinds (a box).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from catalog.games.definition import Definition


def _reference(game: Definition, side: int) -> np.ndarray:
    from catalog.compute import reference

    return reference.p_positions(game, side)


class DenseSweep:
    """A box [0, x) x [0, height) of any game, computed whole."""

    def __init__(self, game: Definition, height: int) -> None:
        self.game = game
        self.height = height
        self.x = 0

    @classmethod
    def resume(
        cls,
        game: Definition,
        positions: np.ndarray,
        x_bound: int,
        height: int | None = None,
    ) -> DenseSweep:
        if height is None:
            raise ValueError("a dense sweep needs a height")
        sweep = cls(game, height)
        sweep.x = x_bound
        return sweep

    def advance(
        self,
        x_end: int,
        progress: Callable[[int], None] | None = None,
        y_bound: int | None = None,
    ) -> np.ndarray:
        side = max(x_end, self.height)
        found = _reference(self.game, side)
        keep = (found[:, 0] >= self.x) & (found[:, 0] < x_end)
        keep &= found[:, 1] < self.height
        if y_bound is not None:
            keep &= found[:, 1] < y_bound
        if progress is not None and x_end > self.x:
            progress(x_end - self.x)
        self.x = max(self.x, x_end)
        return found[keep]


class ConeSweep(DenseSweep):
    """Whole columns of a cone game with both of Nim's rays."""

    def __init__(self, game: Definition) -> None:
        super().__init__(game, 0)

    @classmethod
    def resume(  # type: ignore[override]
        cls, game: Definition, positions: np.ndarray, x_bound: int
    ) -> ConeSweep:
        sweep = cls(game)
        sweep.x = x_bound
        return sweep

    def advance(
        self,
        x_end: int,
        progress: Callable[[int], None] | None = None,
        y_bound: int | None = None,
    ) -> np.ndarray:
        self.height = min(2000, 4 * max(x_end, 1) + 16)
        return super().advance(x_end, progress, y_bound)
