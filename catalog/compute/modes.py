"""How a game's table is swept, read off its rays alone: in whole columns
("column mode"), through its transpose, or in boxes; and the largest n each
allows.

Games with a vertical ray (0, b) have finitely many P-positions in each
column and are swept column by column. Games with a horizontal ray but no
usable vertical one are swept through their transpose. Games with neither
can have a P-position in every row of a column and are swept in a box
[0, X) x [0, Y), held to :data:`MAX_BOX_N`.

Kept apart from :mod:`catalog.compute.ptable` and the kernels: reading a
stored entry asks these questions without loading any sweep.
"""

from __future__ import annotations

from catalog.games.definition import MAX_N, Definition, lcm

#: Column mode scans up to lcm(vertical rays) cells above the last P-position
#: of a column to prove it complete; beyond this the game is swept in boxes.
MAX_VERTICAL_PERIOD = 4096
#: Largest n for box-mode games (neither a vertical nor a horizontal ray):
#: their columns can each hold up to n P-positions, n * n in all.
MAX_BOX_N = 30_000


def column_mode(game: Definition) -> bool:
    """Does every column of ``game`` hold finitely many P-positions?

    True when the game has a vertical ray (0, b): two P-positions of one
    column in the same class mod b would be options of each other, so a
    column holds at most b of them besides its forced ones.
    """
    vertical = [b for a, b in game.rays if a == 0]
    return bool(vertical) and lcm(vertical) <= MAX_VERTICAL_PERIOD


def transpose(game: Definition) -> Definition:
    """The same game with the piles exchanged: (x, y) is P in ``game`` iff
    (y, x) is P in the result. Ho's rules are symmetric and stay."""

    def swap(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((b, a) for a, b in cells))

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
    return not column_mode(game) and column_mode(transpose(game))


def box_limited(game: Definition) -> bool:
    """Is ``game`` held to :data:`MAX_BOX_N`: neither a vertical nor a
    horizontal ray, so that a column and a row can each hold unboundedly
    many P-positions?"""
    return not column_mode(game) and not transposable(game)


def max_n(game: Definition) -> int:
    """The largest n of :func:`~catalog.compute.ptable.p_positions` for
    ``game``."""
    return MAX_BOX_N if box_limited(game) else MAX_N
