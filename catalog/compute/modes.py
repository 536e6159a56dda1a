"""How a game's table is computed: which engine (:func:`engine`, asked of
the game's rule kinds), in whole columns ("column mode"), through its
transpose, or in boxes; and the largest n each allows.

Games with a vertical ray (0, b) have finitely many P-positions in each
column and are swept column by column. Games with a horizontal ray but no
usable vertical one are swept through their transpose. Games with neither
can have a P-position in every row of a column and are swept in a box
[0, X) x [0, Y), held to :data:`MAX_BOX_N`.

Kept apart from :mod:`catalog.compute.ptable` and the kernels: reading a
stored entry asks these questions without loading any sweep.
"""

from __future__ import annotations

from catalog import kinds
from catalog.games.definition import MAX_N, Definition, DefinitionError, lcm

#: Column mode scans up to lcm(vertical rays) cells above the last P-position
#: of a column to prove it complete; beyond this the game is swept in boxes.
MAX_VERTICAL_PERIOD = 4096
#: Largest n for box-mode games (neither a vertical nor a horizontal ray):
#: their columns can each hold up to n P-positions, n * n in all.
MAX_BOX_N = 30_000
#: Largest n for the dense engine (cones without Nim's rays, blocking,
#: Euclid's game): it keeps a few n x n tables of counts.
MAX_DENSE_N = 4000
#: Largest n for the subtraction engine (Beatty moves, the ⋆-operator): two
#: n x n bitsets, n^2 / 4 bytes (625 MB at 50,000).
MAX_SUBTRACTION_N = 50_000
#: Most memory a box may take (by catalog.compute.cost.box_bytes, or the
#: dense engine's tables): 1 GB.
MAX_BOX_BYTES = 1 << 30
#: The sweeps a store fill runs, whole columns at a time.
COLUMN_ENGINES = frozenset({"kernel", "general"})
#: The engines that compute a box n x n whole (at most :func:`max_n`).
BOX_ENGINES = frozenset({"box", "dense", "cones", "blocking", "subtraction"})


def engine(game: Definition) -> str:
    """The engine that computes ``game``: the first of
    :data:`catalog.kinds.ENGINES` (after the closed forms) that every rule
    kind of the game agrees to and whose own condition holds.

    Raises
    ------
    DefinitionError
        When the game's kinds have no engine in common.
    """
    allowed = kinds.engines(game)
    if "kernel" in allowed and _vertical(game):
        return "kernel"
    if "cones" in allowed and "cones" in game.kinds and _nim_rays(game):
        return "cones"
    if "blocking" in allowed and game.block > 0 and _nim_rays(game):
        return "blocking"
    if "general" in allowed and _vertical(game):
        return "general"
    if "transposed" in allowed and _vertical(transpose(game)):
        return "transposed"
    if "box" in allowed:
        return "box"
    if "dense" in allowed:
        return "dense"
    if "subtraction" in allowed:
        return "subtraction"
    names = ", ".join(sorted(game.kinds))
    raise DefinitionError(f"definition: no engine computes {names} together yet")


def _nim_rays(game: Definition) -> bool:
    """Both of Nim's rays: at most b + 1 P-positions a row and a column
    besides the forced ones (block b; one without blocking)."""
    return {(0, 1), (1, 0)} <= set(game.rays)


def _vertical(game: Definition) -> bool:
    """A vertical ray (0, b): two P-positions of one column in the same class
    mod b would be options of each other, so a column holds at most b of
    them besides its forced ones."""
    vertical = [b for a, b in game.rays if a == 0]
    return bool(vertical) and lcm(vertical) <= MAX_VERTICAL_PERIOD


def column_mode(game: Definition) -> bool:
    """Does every column of ``game`` hold finitely many P-positions, computed
    whole column by column (:data:`COLUMN_ENGINES`)?"""
    return engine(game) in COLUMN_ENGINES


def transpose(game: Definition) -> Definition:
    """The same game with the piles exchanged: (x, y) is P in ``game`` iff
    (y, x) is P in the result. Ho's rules are symmetric and stay."""

    def swap(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((b, a) for a, b in cells))

    if game.beyond("rays", "moves", "alter", "ho-restriction", "ho-extension"):
        raise DefinitionError("definition: only rays, moves and Ho's rules transpose")
    return Definition(
        swap(game.rays),
        swap(game.moves),
        game.special,
        swap(game.forced_p),
        swap(game.forced_n),
    )


def transposable(game: Definition) -> bool:
    """Is ``game`` a column game once the piles are exchanged (a horizontal
    ray (a, 0) but no usable vertical one)? Such a game is computed through
    its transpose (:class:`~catalog.compute.special_kernel.TransposedSweep`)."""
    return engine(game) == "transposed"


def box_limited(game: Definition) -> bool:
    """Is ``game`` computed whole in a box [0, n) x [0, n)
    (:data:`BOX_ENGINES`): held to :func:`max_n` and to the memory a box may
    take (:data:`MAX_BOX_BYTES`), checked before it is computed?"""
    return engine(game) in BOX_ENGINES


def max_n(game: Definition) -> int:
    """The largest n of :func:`~catalog.compute.ptable.p_positions` for
    ``game``."""
    name = engine(game)
    limits = {
        "box": MAX_BOX_N,
        "dense": MAX_DENSE_N,
        "subtraction": MAX_SUBTRACTION_N,
    }
    own = limits.get(name, MAX_N)
    # A ⋆ needs its game's P-positions below the same n.
    return own if game.star is None else min(own, max_n(game.star))
