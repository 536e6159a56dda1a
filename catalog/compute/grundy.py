"""Sprague–Grundy values of games without alterations: a compiled kernel.

g(x, y) is the least value that no option of (x, y) has. The options along a
ray (a, b) are exactly the cells before (x, y) on its line of that ray (the
lines are those of :mod:`catalog.compute.kernel`), so each line keeps the set
of values already on it as a bitset of 64-bit words, with a pointer to its
first word that is not full. A cell then ORs the words of its lines from the
largest of those pointers on (the mex of a union is at least the mex of each
part) and takes the first zero bit: a few word operations per ray, not a walk
over the options.

A ray whose lines would take more memory than :data:`LINE_BYTES` allows (a
long step, whose lines are many and short) walks its options in the table
instead, as do the single moves; they mark a scratch bitset that the mex
reads too. Ho's restriction forbids a whole ray or move at a cell, so it only
leaves that ray's line out of the cell's mex; the cell's value still goes onto
every line through it.

An altered game fixes only which positions are P and N, so its Grundy values
are not defined; ho-extension's options (a triangle of cells, not lines) are
not supported yet.

Why numba: like the column sweep, each cell depends on the ones before it,
so nothing vectorises; see :mod:`catalog.compute.kernel`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from typing import Any

import numpy as np

from catalog import kinds
from catalog.compute.jit import njit
from catalog.errors import Unprocessable
from catalog.games.definition import Definition, canonicalize, check_n

#: Largest n for a Grundy table (n x n values).
MAX_GRUNDY_N = 10_000
#: Most bytes of line bitsets one table may hold; rays beyond it are walked.
LINE_BYTES = 512 * 2**20

#: De Bruijn sequence and table: the index of a 64-bit word's single set bit.
_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DEBRUIJN_INDEX[((_DEBRUIJN << _bit) & (2**64 - 1)) >> 58] = _bit


@dataclass(frozen=True)
class Plan:
    """How :func:`grundy` computes a game's table up to ``n``.

    ``lines`` holds the rays kept as line bitsets, ``walked`` the rays walked
    in the table; ``top`` bounds every value (a value is at most the number
    of options), ``words`` is the length of a bitset.
    """

    n: int
    lines: tuple[tuple[int, int], ...]
    walked: tuple[tuple[int, int], ...]
    moves: tuple[tuple[int, int], ...]
    restriction: bool
    top: int

    @property
    def words(self) -> int:
        return self.top // 64 + 1

    def walk_steps(self) -> float:
        """Options the walked rays visit over the whole table (about)."""
        m = self.n
        return sum(m * m * (m - 1) / (2 * max(a, b)) for a, b in self.walked)


def line_count(a: int, b: int, n: int) -> int:
    """Lines of the ray (a, b) that meet [0, n)^2 (b of them per column for a
    vertical ray: those are started afresh in each column)."""
    if a == 0:
        return b
    g = gcd(a, b)
    p, q = a // g, b // g
    return ((n - 1) * (p + q) + 1) * g


def plan(game: Definition, n: int, line_bytes: int = LINE_BYTES) -> Plan:
    """Choose which rays keep line bitsets, within ``line_bytes``.

    A ray with steps (a, b) walks about n / max(a, b) options per cell and
    keeps about n (a + b) lines, so the rays are taken in increasing order of
    max(a, b) (a + b) while their lines fit.
    """
    top = len(game.moves) + sum(
        (n - 1) // b if a == 0 else (n - 1) // max(a, b) for a, b in game.rays
    )
    words = top // 64 + 1
    kept: list[tuple[int, int]] = []
    walked: list[tuple[int, int]] = []
    used = 0
    for a, b in sorted(game.rays, key=lambda r: (max(r) * (r[0] + r[1]), r)):
        size = line_count(a, b, n) * words * 8
        if used + size <= line_bytes:
            kept.append((a, b))
            used += size
        else:
            walked.append((a, b))
    return Plan(
        n=n,
        lines=tuple(kept),
        walked=tuple(walked),
        moves=game.moves,
        restriction="ho-restriction" in game.kinds,
        top=top,
    )


def check(game: Definition) -> None:
    """Raise :class:`~catalog.errors.Unprocessable` for a game without
    defined or supported values: a valid game, for which the question has
    no answer here (the API's 422)."""
    for kind in kinds.present(game):
        if kind.no_grundy:
            raise Unprocessable(kind.no_grundy)
    if "ho-extension" in game.kinds:
        raise Unprocessable(
            "special: Grundy values of ho-extension are not supported yet"
        )


def _enumerated(game: Definition, n: int) -> np.ndarray:
    """Cones, Euclid's game, Beatty moves and ⋆: the mex over each cell's
    enumerated options (:func:`catalog.compute.ruleset.dense_grundy`; the
    moves of a Beatty rule or a ⋆ below n written out as single moves), up
    to :data:`~catalog.compute.ruleset.GRUNDY_MAX_N`."""
    from catalog.compute.kindsweeps import cone_rows, move_list
    from catalog.compute.ruleset import GRUNDY_MAX_N, dense_grundy

    n = check_n(n, maximum=GRUNDY_MAX_N)
    moves = np.array(game.moves, dtype=np.int64).reshape(-1, 2)
    if game.beatty is not None or game.star is not None:
        bare = Definition((), beatty=game.beatty, star=game.star)
        moves = np.concatenate([moves, move_list(bare, n)])
    table = dense_grundy(
        n,
        rays=np.array(game.rays, dtype=np.int64).reshape(-1, 2),
        moves=moves,
        cones=cone_rows(game.cones),
        euclid="euclid" in game.kinds,
        ho_restriction="ho-restriction" in game.kinds,
    )
    dtype = np.int16 if n == 0 or table.max() < np.iinfo(np.int16).max else np.int32
    return table.astype(dtype)


def grundy(
    definition: Mapping[str, Any] | Definition, n: int, line_bytes: int = LINE_BYTES
) -> np.ndarray:
    """``g[x, y]`` for x, y < n, as an (n, n) array.

    Parameters
    ----------
    definition : dict or Definition
        A game without alterations (and without ho-extension).
    n : int
        The bound, 0 <= n <= :data:`MAX_GRUNDY_N`.
    line_bytes : int
        Memory for line bitsets; rays beyond it are walked (slower, same
        values).

    Returns
    -------
    numpy.ndarray
        Shape (n, n): int16 when every value the game can reach below n fits
        in it, else int32.

    Raises
    ------
    Unprocessable
        For an altered game (its Grundy values are not defined) or the
        special rule ho-extension (not supported yet).
    DefinitionError
        For a bad definition or ``n``.

    Notes
    -----
    Time: a few word operations per cell and line ray, plus the options of
    the walked rays and the single moves. Memory: the table, plus
    lines * (top / 64 + 1) words for the line rays, top being the most
    options any cell has (3n for Wythoff's Nim: 113 MB of lines at n = 10^4).

    Examples
    --------
    >>> grundy({"rays": [[1, 0], [0, 1], [1, 1]]}, 3).tolist()
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    game = canonicalize(definition)
    n = check_n(n, maximum=MAX_GRUNDY_N)
    check(game)
    if game.beyond("rays", "moves", "ho-restriction"):
        return _enumerated(game, n)
    how = plan(game, n, line_bytes)
    dtype = np.int16 if how.top < np.iinfo(np.int16).max else np.int32
    table = np.zeros((n, n), dtype=dtype)
    if n == 0:
        return table
    la, lb, lp, ls, lbase = _line_rays(how.lines, n)
    bits = np.zeros(int(lbase[-1]) * how.words, dtype=np.int64)
    first = np.zeros(int(lbase[-1]), dtype=np.int64)
    walked = np.array(how.walked, dtype=np.int64).reshape(-1, 2)
    moves = np.array(how.moves, dtype=np.int64).reshape(-1, 2)
    _fill(
        table,
        la,
        lb,
        lp,
        ls,
        lbase,
        bits,
        first,
        how.words,
        walked,
        moves,
        how.restriction,
        _DEBRUIJN_INDEX,
    )
    return table


def _line_rays(
    rays: tuple[tuple[int, int], ...], n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per line ray: a, b, p, the stride p g of its line index along a
    column, and the offset of its lines among all (one more at the end)."""
    a = np.array([r[0] for r in rays], dtype=np.int64)
    b = np.array([r[1] for r in rays], dtype=np.int64)
    g = np.array([gcd(x, y) if x else 1 for x, y in rays], dtype=np.int64)
    p = np.where(a > 0, a // g, 0)
    counts = [line_count(x, y, n) for x, y in rays]
    base = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return a, b, p, p * g, base


@njit(cache=True)
def _fill(table, la, lb, lp, ls, lbase, bits, first, words, walked, moves, ho, dbi):
    """Fill ``table`` column by column (see the module docstring)."""
    n = table.shape[0]
    nl = la.size
    full = np.int64(-1)
    db = np.int64(_DEBRUIJN)
    scratch = np.zeros(words, dtype=np.int64)
    touched = np.empty(words * 64, dtype=np.int64)
    line = np.empty(nl, dtype=np.int64)  # the cell's line, per line ray
    active = np.empty(nl, dtype=np.int64)  # its first word, if the ray applies
    column = np.empty(nl, dtype=np.int64)  # index of the line of (x, 0)
    for x in range(n):
        for i in range(nl):
            if la[i] == 0:
                # A vertical ray's lines are in this column only: start afresh.
                for k in range(lbase[i], lbase[i + 1]):
                    first[k] = 0
                    for w in range(k * words, (k + 1) * words):
                        bits[w] = 0
                column[i] = lbase[i]
            else:
                g = ls[i] // lp[i]
                q = lb[i] // g
                # (y p - x q) g + (x // p) mod g, shifted to start at 0.
                column[i] = lbase[i] + ((n - 1 - x) * q) * g + (x // lp[i]) % g
        for y in range(n):
            start = 0
            live = 0
            for i in range(nl):
                if la[i] == 0:
                    k = column[i] + y % lb[i]
                else:
                    k = column[i] + y * ls[i]
                line[i] = k
                if ho and ((lb[i] == 0 and x < y) or (la[i] == 0 and y < x)):
                    continue  # Ho's restriction: the smaller pile alone
                active[live] = k * words
                live += 1
                if first[k] > start:
                    start = first[k]
            marked = 0
            for j in range(walked.shape[0]):
                a = walked[j, 0]
                b = walked[j, 1]
                if ho and ((b == 0 and x < y) or (a == 0 and y < x)):
                    continue
                xs = x - a
                ys = y - b
                while xs >= 0 and ys >= 0:
                    v = np.int64(table[xs, ys])
                    scratch[v >> 6] |= np.int64(1) << (v & 63)
                    touched[marked] = v >> 6
                    marked += 1
                    xs -= a
                    ys -= b
            for j in range(moves.shape[0]):
                a = moves[j, 0]
                b = moves[j, 1]
                if x < a or y < b:
                    continue
                if ho and ((b == 0 and x < y) or (a == 0 and y < x)):
                    continue
                v = np.int64(table[x - a, y - b])
                scratch[v >> 6] |= np.int64(1) << (v & 63)
                touched[marked] = v >> 6
                marked += 1
            w = start
            while True:
                m = scratch[w]
                for k in range(live):
                    m |= bits[active[k] + w]
                if m != full:
                    break
                w += 1
            low = ~m & (m + 1)  # the lowest zero bit of m, alone
            value = w * 64 + dbi[((low * db) >> 58) & 63]
            table[x, y] = value
            for k in range(marked):
                scratch[touched[k]] = 0
            word = value >> 6
            bit = np.int64(1) << (value & 63)
            for i in range(nl):
                k = line[i]
                bits[k * words + word] |= bit
                if first[k] == word:
                    while first[k] < words and bits[k * words + first[k]] == full:
                        first[k] += 1


def json_rows(table: np.ndarray, x0: int, x1: int) -> str:
    """The rows ``table[x0:x1]`` as JSON arrays joined by commas,
    ``"[0,1,2],[1,2,0]"``: the text of a large table without a Python list
    (``tolist`` and ``json`` spend some 150 ns and 30 bytes per value).

    Examples
    --------
    >>> json_rows(np.array([[0, 1], [1, 0]]), 0, 2)
    '[0,1],[1,0]'
    """
    x1 = min(x1, table.shape[0])
    if x1 <= x0:
        return ""
    digits = len(str(int(table.max()))) if table.size else 1
    out = np.empty((x1 - x0) * (table.shape[1] * (digits + 1) + 3), dtype=np.uint8)
    size = _encode(table, x0, x1, out)
    return out[:size].tobytes().decode("ascii")


@njit(cache=True)
def _encode(table, x0, x1, out):
    pos = 0
    for x in range(x0, x1):
        if x > x0:
            out[pos] = 44  # ","
            pos += 1
        out[pos] = 91  # "["
        pos += 1
        for y in range(table.shape[1]):
            if y:
                out[pos] = 44
                pos += 1
            v = np.int64(table[x, y])
            width = 1
            t = v // 10
            while t:
                width += 1
                t //= 10
            for k in range(width - 1, -1, -1):
                out[pos + k] = 48 + v % 10
                v //= 10
            pos += width
        out[pos] = 93  # "]"
        pos += 1
    return pos
