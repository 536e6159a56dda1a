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
  (:mod:`catalog.compute.dense`);
- :class:`SubtractionSweep`, games with Beatty moves or a ⋆: their move set
  below n written out as a bitset (a ⋆'s from the P-positions of its game,
  computed first by whichever engine computes that game) and swept by
  bitset sums (:mod:`catalog.compute.subtraction`).

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
        except DefinitionError:  # names its field already
            raise
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


#: Computes the P-positions below n of a game (the game of a ⋆):
#: :func:`catalog.compute.ptable.p_positions`, which the caller passes in
#: (it imports this module).
Inner = Callable[[Definition, int], np.ndarray]


class SubtractionSweep(_Box):
    """A box of a game of invariant moves (rays, single moves, cones, Beatty
    moves, a ⋆), altered or not. ``inner`` computes the game of a ⋆."""

    def __init__(self, game: Definition, height: int, inner: Inner | None = None):
        super().__init__(game, height)
        self.inner = inner or box_positions

    @classmethod
    def resume(  # type: ignore[override]
        cls,
        game: Definition,
        positions: np.ndarray,
        x_bound: int,
        height: int,
        inner: Inner | None = None,
    ) -> Self:
        sweep = cls(game, height, inner)
        sweep.x = x_bound
        return sweep

    def _compute(self, side: int) -> np.ndarray:
        from catalog.compute import subtraction
        from catalog.compute.modes import MAX_BOX_BYTES

        need = subtraction_bytes(side)
        if need > MAX_BOX_BYTES:  # before anything is allocated
            raise TooMuchWork(
                f"n={side}: the subtraction engine's bitsets would take "
                f"{need >> 20} MB, over the {MAX_BOX_BYTES >> 20} MB a box may take"
            )
        bits = subtraction.move_bits(side, move_list(self.game, side, self.inner))
        if self.game.cones:
            subtraction.cone_bits(bits, side, cone_rows(self.game.cones))
        return subtraction.p_positions_of_bits(
            side, bits, _pairs(self.game.forced_p), _pairs(self.game.forced_n)
        )


def subtraction_bytes(side: int) -> int:
    """The memory of the subtraction engine's two bitsets at side n."""
    return 2 * side * ((side + 63) // 64) * 8


def move_list(game: Definition, n: int, inner: Inner | None = None) -> np.ndarray:
    """The moves (a, b), a, b < n, of ``game``'s rays, single moves, Beatty
    pairs and ⋆ (the cones are set as bits, :func:`~catalog.compute.
    subtraction.cone_bits`): everything the subtraction engine needs.
    ``inner`` computes the ⋆'s game (default :func:`box_positions`)."""
    inner = inner or box_positions
    from catalog.compute import subtraction

    parts = [subtraction.ray_moves(_pairs(game.rays), n), _pairs(game.moves)]
    if game.beatty is not None:
        parts.append(subtraction.beatty_moves(game.beatty, n))
    if game.star is not None:
        try:
            inside = inner(game.star, n)
        except DefinitionError as exc:  # the game inside has a smaller limit
            raise DefinitionError(f"star: {exc}") from None
        parts.append(subtraction.star_moves(inside))
    moves = np.concatenate(parts)
    return moves[(moves[:, 0] < n) & (moves[:, 1] < n)]


def box_positions(game: Definition, side: int) -> np.ndarray:
    """The P-positions of ``game`` in the box [0, side)^2 by the box sweep of
    its engine (a column game's by the general sweep in box mode): what a
    ⋆'s game is computed by where :func:`catalog.compute.ptable.p_positions`
    (which imports this module) is not passed in, and the cost's probes."""
    from catalog.compute.modes import engine
    from catalog.compute.special_kernel import GeneralSweep

    name = engine(game)
    if name == "subtraction":
        return SubtractionSweep(game, side).advance(side)
    sweeps = {"dense": DenseSweep, "cones": ConeSweep, "blocking": BlockSweep}
    box = sweeps.get(name, GeneralSweep)
    return box(game, height=side).advance(side)


def winning_move(
    game: Definition,
    found: np.ndarray,
    x: int,
    y: int,
    inner: Inner | None = None,
) -> tuple[int, int] | None:
    """A move of a game of invariant moves (the subtraction engine's) from
    the N-position (x, y) to one of ``found`` (P-positions with x' <= x and
    y' <= y), or None: the move set below (x, y) as the engine's bitset, and
    every P-position tested against it at once (the literal options of a
    ⋆ would label its game cell by cell)."""
    from catalog.compute import subtraction

    side = max(x, y) + 1
    bits = subtraction.move_bits(side, move_list(game, side, inner))
    if game.cones:
        subtraction.cone_bits(bits, side, cone_rows(game.cones))
    below = found[(found[:, 0] <= x) & (found[:, 1] <= y)]
    dx, dy = x - below[:, 0], y - below[:, 1]
    words = bits[dx, dy >> 6]
    hit = (words >> (dy & 63).astype(np.uint64)) & np.uint64(1)
    at = np.flatnonzero(hit)
    return None if at.size == 0 else (int(below[at[0], 0]), int(below[at[0], 1]))
