"""Outcomes of Maharaja-type games far out, through their dictionary.

U. Larsson and J. Wästlund, *Maharaja Nim: Wythoff's Queen meets the Knight*,
arXiv:1207.0765, section 2 (and section 4 for the (k, l) family). Notation of
:mod:`catalog.compute.dictionary`: B is the bit-string (bit x = 0 iff column
x holds an upper P-position), s_0 the column of the first word, and the words
w_1 w_2 … parse B from s_0 on.

The facts used (see docs/invariants/maharaja-far-out.md):

- A word starting at column s has its translate at rows t = s + r(s) on,
  r(s) = the zeros of B before s (k + 1 = X + C + 2, C + 1 = r(s)).
- A translate of a word of length m with l zeros has m + l bits, l of them
  ones (the rows of the word's upper P-positions): so the zeros of B before
  t_j are r(T) + (s_j − s_0), T = t_1.
- Inside a perfect sector the word alone decides its P-positions (the
  sector's defining property), so each word carries a fixed row for each of
  its zeros; :func:`local_translation` computes them by the game's rule, and
  they reproduce the paper's translates (27)–(40).

Far out, the three questions "which word holds column p", "which translate
holds row p" and "where is the n-th zero" each go down one level to a
position about p/φ. The one thing a single level cannot tell is where words
start inside a translate: that depends on the unfinished word carried in
from before (the parse state). It is found exactly by reading the translates
of the preceding words from every possible state until only one state is
left: correct whatever happens, and quick because two or three translates
almost always agree on their end state. Work per answer: O(log p) levels of
O(1) words, each on integers of O(log p) digits.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import isqrt
from threading import Lock

import numpy as np

from catalog.compute import worddescent
from catalog.compute.dictionary import Dictionary, bit_text, column_values
from catalog.games.definition import Vector

Cell = tuple[int, int]
Word = tuple[int, int, str]  # (start column s, zeros of B before s, the word)

#: Bits written out at set-up, past the table's prefix, by running the
#: dictionary process itself (positions below are plain lookups; above, the
#: descent of :mod:`catalog.compute.worddescent` takes some 50 µs at 10^18).
BASE_BITS = 1 << 16


class NotADictionary(ValueError):
    """The words cannot drive the process (not prefix-free, or a word that
    is not a perfect-sector word of the game)."""


@dataclass(frozen=True)
class Translation:
    """A word, its translate and the row (relative to t) of each of its zeros."""

    word: str
    translate: str
    rows: tuple[int, ...]  # per column of the word; -1 for a 1
    columns: dict[int, int]  # relative row of a 1 of the translate -> column


def local_translation(word: str, moves: Iterable[Vector]) -> Translation:
    """The P-positions of ``word``'s columns inside a perfect sector.

    Relative coordinates: column i of the word, row y above t. The sector
    holds y ≥ i (diagonals from C + 1 on, all free); a column of the word
    marked 1 holds a lower P-position and no upper one. Each column marked 0
    gets the least y whose row and diagonal are free and from which no
    single move reaches an earlier P-position of the word.

    Raises
    ------
    NotADictionary
        When the word does not end at a perfect column: its upper
        P-positions do not use exactly the next diagonals, a row falls
        outside the translate, or a move from one of them lands in the next
        sector.
    """
    moves = tuple(moves)
    placed: dict[int, int] = {}
    used_rows: set[int] = set()
    used_diagonals: set[int] = set()
    rows = []
    free = 0  # the least diagonal not used yet: every y - i below it is taken
    for i, bit in enumerate(word):
        if bit == "1":
            rows.append(-1)
            continue
        y = i + free
        while (
            y in used_rows
            or y - i in used_diagonals
            or any(placed.get(i - p) == y - q for p, q in moves)
        ):
            y += 1
        placed[i] = y
        used_rows.add(y)
        used_diagonals.add(y - i)
        while free in used_diagonals:
            free += 1
        rows.append(y)
    m, zeros = len(word), word.count("0")
    if used_diagonals != set(range(zeros)) or any(y >= m + zeros for y in used_rows):
        raise NotADictionary(f"word {word} does not close a perfect sector")
    for i, y in placed.items():
        for p, q in moves:
            if i + p >= m and (y + q) - (i + p) >= zeros:
                raise NotADictionary(f"a move from word {word} enters the next sector")
    translate = "".join("1" if y in used_rows else "0" for y in range(m + zeros))
    return Translation(word, translate, tuple(rows), {y: i for i, y in placed.items()})


def _phi_down(p: int) -> int:
    """⌊p/φ⌋ up to ±1, exactly for integers of any size."""
    return max((isqrt(5 * p * p) - p) // 2, 0)


class WordFarOut:
    """Every P-position of a Maharaja-type game, from a prefix and a dictionary.

    Parameters
    ----------
    positions : ``p_positions(game, n)``: the prefix (its complete columns).
    start : s_0, the column of the first word (``Dictionary.start``).
    words : the dictionary's words (their translates are recomputed by
        :func:`local_translation` with ``moves``).
    moves : the game's single moves.
    base_bits : how much of the bit-string to write out at set-up.
    """

    def __init__(
        self,
        positions: np.ndarray,
        n: int,
        start: int,
        words: Iterable[str],
        moves: Iterable[Vector],
        base_bits: int = BASE_BITS,
    ) -> None:
        self.moves = tuple(sorted(set(moves)))
        self.book: dict[str, Translation] = {
            w: local_translation(w, self.moves) for w in words
        }
        if any(a != b and b.startswith(a) for a in self.book for b in self.book):
            raise NotADictionary("the words are not prefix-free")
        self.head = column_values(positions, n)  # y(x) for the table's columns
        self.s0 = start
        prefix = bit_text(self.head < np.arange(len(self.head)))
        self.z0 = prefix[:start].count("0")
        self.T = start + self.z0
        if self.T > len(prefix):
            raise NotADictionary("the prefix ends before the first translate")
        self.zT = prefix[: self.T].count("0")
        self._write(prefix[: self.T], max(base_bits, len(self.head)))
        if self.bits[: len(prefix)] != prefix:
            raise NotADictionary("the dictionary does not rebuild the table")
        self.longest = max(map(len, self.book))
        self.prefixes = sorted({w[:i] for w in self.book for i in range(len(w))})
        self.ends = {
            w: {sigma: self._run(sigma, t.translate) for sigma in self.prefixes}
            for w, t in self.book.items()
        }
        self.length = {w: len(t.translate) for w, t in self.book.items()}
        self.expand = {
            w: {sigma: self._expand(sigma, t.translate) for sigma in self.prefixes}
            for w, t in self.book.items()
        }
        # Deviations b_n − a_n − n reachable: the prefix's and each word's.
        a = np.flatnonzero(self.head >= np.arange(len(self.head)))
        dev = (self.head[a] - a - np.arange(len(a))).tolist()
        for t in self.book.values():
            zeros_before = 0
            for i, y in enumerate(t.rows):
                if y >= 0:
                    dev.append(y - i - zeros_before)
                    zeros_before += 1
        self.dev_min, self.dev_max = min(dev), max(dev)
        self._descent: worddescent.Descent | None = None
        self._descent_built = False
        self._descent_lock = Lock()

    @property
    def descent(self) -> worddescent.Descent | None:
        """The descent's tables (:mod:`catalog.compute.worddescent`), built
        by the first query past the written-out words: the invariants that
        only check the dictionary never need them."""
        if not self._descent_built:
            with self._descent_lock:
                if not self._descent_built:
                    self._descent = worddescent.build(self)
                    self._descent_built = True
        return self._descent

    # -- set-up: the process written out ---------------------------------

    def _write(self, prefix: str, size: int) -> None:
        """Run the dictionary process from s_0 until ``size`` bits are known."""
        tr = {w: t.translate for w, t in self.book.items()}
        bits, read, parsed = prefix, self.s0, []
        while len(bits) < size:
            found = _parse(self.book, bits, read)
            used = sum(map(len, found))
            if not found:
                raise NotADictionary(f"no word of the dictionary at column {read}")
            parsed.extend(found)
            bits += "".join(tr[w] for w in found)
            read += used
        lengths = np.fromiter(map(len, parsed), dtype=np.int64, count=len(parsed))
        zeros = np.fromiter(
            (w.count("0") for w in parsed), dtype=np.int64, count=len(parsed)
        )
        self.bits = bits
        self.words = parsed
        self.starts = self.s0 + np.concatenate([[0], np.cumsum(lengths)[:-1]])
        self.zeros = self.z0 + np.concatenate([[0], np.cumsum(zeros)[:-1]])
        self.read = read  # columns below are parsed into known words
        self.t = self.starts + self.zeros  # where each translate starts
        self.start_list = self.starts.tolist()
        self.zero_list = self.zeros.tolist()
        self.t_list = self.t.tolist()

    def _run(self, sigma: str, text: str) -> str | None:
        """The unfinished word after reading ``text`` with ``sigma`` pending
        (None: no word can be read that way)."""
        for ch in text:
            sigma += ch
            if sigma in self.book:
                sigma = ""
            elif len(sigma) >= self.longest or not self._is_prefix(sigma):
                return None
        return sigma

    def _expand(
        self, sigma: str, text: str
    ) -> tuple[list[tuple[int, int, str]], str | None]:
        """The words completed reading ``text`` after ``sigma``: (start and
        zeros before it, both counted from the start of sigma, word), and
        the unfinished word left."""
        found, begin, zeros, current = [], 0, 0, sigma
        for ch in text:
            current += ch
            if current in self.book:
                found.append((begin, zeros, current))
                begin += len(current)
                zeros += current.count("0")
                current = ""
        return found, self._run(sigma, text)

    def _is_prefix(self, sigma: str) -> bool:
        i = bisect_right(self.prefixes, sigma) - 1
        return i >= 0 and self.prefixes[i] == sigma

    # -- one level down --------------------------------------------------

    def _base(self, lo: int, hi: int) -> list[Word]:
        """The written-out words that meet columns lo .. hi."""
        i = max(bisect_right(self.start_list, lo) - 1, 0)
        j = bisect_right(self.start_list, hi)
        return [
            (self.start_list[k], self.zero_list[k], self.words[k]) for k in range(i, j)
        ]

    def _up(self, window: list[Word]) -> list[Word]:
        """The words parsed from the translates of consecutive ``window``.

        The unfinished word carried into the first translate is not known:
        read from every possible one until a single state is left, and keep
        the words from there on (exact; usually one or two translates).
        """
        states = set(self.prefixes)
        out: list[Word] = []
        for s, z, w in window:
            if len(states) > 1:
                states = {e for o in states if (e := self.ends[w][o]) is not None}
                continue
            [sigma] = states
            begin = s + z - len(sigma)
            zeros = self.zT + (s - self.s0) - sigma.count("0")
            found, end = self.expand[w][sigma]
            out += [(begin + at, zeros + before, u) for at, before, u in found]
            states = {end} if end is not None else set()
        return out

    def windows(self, p: int, margin: int = 0) -> tuple[list[Word], list[Word]]:
        """Consecutive words (start, zeros before it, word) that cover
        columns p − margin .. p + margin of the bit-string (p ≥ s_0), and
        the words whose translates hold them (empty when p is written out).

        Walks up from p/φ^k in the written-out part, one translation a level,
        keeping a few words around each p/φ^j: more on the left, where the
        first translates (9 to 33 positions far out for Maharaja Nim) only
        serve to find the parse state.
        """
        left, right = 56, 6
        while True:
            targets = [p]
            while targets[-1] + 2 * (right + margin) >= self.read:
                targets.append(_phi_down(targets[-1]))
            bottom = targets.pop()
            lower: list[Word] = []
            window = self._base(max(bottom - left, self.s0), bottom + right)
            for level, q in enumerate(reversed(targets)):
                top = level == len(targets) - 1
                lo = q - (margin if top else left)
                hi = q + (margin if top else right)
                up = self._up(window)
                if not up or up[0][0] > max(lo, self.s0):
                    break
                if up[-1][0] + len(up[-1][2]) <= hi:
                    break
                lower = window
                window = [u for u in up if u[0] + len(u[2]) > lo and u[0] <= hi]
            else:
                if not targets:
                    window = self._base(max(p - margin, self.s0), p + margin)
                return lower, window
            left, right = 2 * left, 2 * right  # too narrow: widen, go again

    def find(self, p: int) -> tuple[Word, Word]:
        """The word holding column p ≥ s_0, and the word whose translate
        holds position p ≥ T of the bit-string: each as (start, zeros
        before it, word). Written out, then down the levels (the descent's
        tables, to 10^400), and past them or where no context closes
        through :meth:`windows`."""
        if p < self.read:
            i = bisect_right(self.start_list, p) - 1
            k = bisect_right(self.t_list, p) - 1
            return self._listed(i), self._listed(k)
        descent = self.descent
        found = descent.locate(p) if descent is not None else None
        if found is None:
            lower, upper = self.windows(p)
            return _holding(upper, p), self._source_in(lower, p)
        return found

    def _listed(self, i: int) -> Word:
        return self.start_list[i], self.zero_list[i], self.words[i]

    def word_at(self, p: int) -> Word:
        """The word holding column p ≥ s_0: (start, zeros before it, word)."""
        return self.find(p)[0]

    def source(self, p: int) -> Word:
        """The word whose translate holds position p ≥ T of the bit-string."""
        return self.find(p)[1]

    def _source_in(self, lower: list[Word], p: int) -> Word:
        for s, z, w in lower:
            if s + z <= p < s + z + self.length[w]:
                return s, z, w
        raise AssertionError(p)  # pragma: no cover

    # -- the bit-string --------------------------------------------------

    def bit(self, p: int) -> int:
        if p < len(self.bits):
            return int(self.bits[p])
        s, _, w = self.word_at(p)
        return int(w[p - s])

    def select0(self, n: int) -> int:
        """The column of the n-th upper P-position a_n (n = 0, 1, …)."""
        if n < self.zT:
            return self.bits.index("0", 0) if n == 0 else _nth_zero(self.bits, n)
        s, z, w = self.word_at(n - self.zT + self.s0)
        k = n - self.zT - (s - self.s0)  # the k-th zero of this translate
        translate = self.book[w].translate
        return s + z + [i for i, c in enumerate(translate) if c == "0"][k]

    # -- the three lines -------------------------------------------------

    def column(self, x: int) -> list[int]:
        """The row of the P-position in column x (one per column)."""
        if x < len(self.head):
            return [int(self.head[x])]
        (s, z, w), (ts, tz, tw) = self.find(x)
        if w[x - s] == "1":  # row x holds the upper P-position of a column
            return [ts + self.book[tw].columns[x - ts - tz]]
        return [s + z + self.book[w].rows[x - s]]

    def row(self, y: int) -> list[int]:
        """The column of the P-position in row y (the game is symmetric)."""
        return self.column(y)

    def diagonal(self, k: int) -> list[int]:
        """The column of the P-position on diagonal y − x = k."""
        if k < 0:
            return [c - k for c in self.diagonal(-k)]
        for n in range(max(k - self.dev_max, 0), k - self.dev_min + 1):
            a = self.select0(n)
            if self.column(a)[0] - a == k:
                return [a]
        raise AssertionError(f"no P-position on diagonal {k}")  # pragma: no cover

    def is_p(self, x: int, y: int) -> bool:
        return self.column(x)[0] == y

    def winning_move(self, x: int, y: int) -> Cell | None:
        """A move from (x, y) to a P-position, if there is one."""
        [below] = self.column(x)
        if below < y:
            return (x, below)
        [left] = self.row(y)
        if left < x:
            return (left, y)
        [back] = self.diagonal(y - x)
        if back < x:
            return (back, back + y - x)
        for p, q in self.moves:
            if x >= p and y >= q and self.is_p(x - p, y - q):
                return (x - p, y - q)
        return None


def _parse(book: Mapping[str, Translation], text: str, at: int) -> list[str]:
    """The words of the (prefix-free) ``book`` read from ``text[at:]`` up to
    the first one that runs past its end."""
    lengths = sorted({len(w) for w in book})
    found: list[str] = []
    while True:
        for length in lengths:
            if at + length > len(text):
                return found
            if (w := text[at : at + length]) in book:
                found.append(w)
                at += length
                break
        else:
            raise NotADictionary(f"no word of the dictionary at column {at}")


def _holding(words: list[Word], p: int) -> Word:
    for word in words:
        if word[0] <= p < word[0] + len(word[2]):
            return word
    raise AssertionError(p)  # pragma: no cover


def _nth_zero(bits: str, n: int) -> int:
    i = -1
    for _ in range(n + 1):
        i = bits.index("0", i + 1)
    return i


def translations(book: Mapping[str, Translation]) -> dict[str, str]:
    return {w: t.translate for w, t in book.items()}


#: Where the paper proves the dictionary of Maharaja Nim.
PAPER_SOURCE = (
    "Larsson–Wästlund, Maharaja Nim, section 2: the dictionary (27)–(40) "
    "with Lemma 2.1 and the Completeness Lemma 2.2"
)
#: Columns of the table a (k, l)-Maharaja game's dictionary is read from and
#: checked against (the bound of its "observed" status).
OBSERVED_N = 100_000
#: Columns of Maharaja Nim's table the process starts from (the paper's
#: first word is at column 8; the rest only checks the start).
PROVED_N = 2_000


@dataclass(frozen=True)
class Solved:
    """A far-out solver and what its answers rest on."""

    solver: WordFarOut
    status: str  # "theorem" or "observed"
    source: str
    checked_to: int  # columns compared with the table


def columns_of(solver: WordFarOut, count: int) -> np.ndarray:
    """y(x) for x < count from the written-out process alone (no table)."""
    ys = np.full(count, -1, dtype=np.int64)
    head = min(solver.s0, count)
    ys[:head] = solver.head[:head]
    for s, z, w in zip(solver.start_list, solver.zero_list, solver.words, strict=True):
        if s >= count:
            break
        t = solver.book[w]
        for i, y in enumerate(t.rows):
            if y >= 0 and s + i < count:
                ys[s + i] = s + z + y
        for o, i in t.columns.items():  # the lower P-positions, by symmetry
            if s + z + o < count:
                ys[s + z + o] = s + i
    # Columns of 1s before the first translate mirror the prefix's rows.
    missing = np.flatnonzero(ys < 0)
    ys[missing] = solver.head[missing] if len(missing) else ys[missing]
    return ys


def solve(
    game_moves: tuple[Vector, ...],
    positions: np.ndarray,
    n: int,
    base_bits: int = BASE_BITS,
    book: Dictionary | None = None,
) -> Solved | None:
    """The far-out solver of a Maharaja-type game, or None when its data
    do not close a dictionary.

    ``positions = p_positions(game, n)``. Maharaja Nim uses the paper's
    words (27)–(40) (status theorem); another game uses the words read off
    its table by the sector rule, when they are prefix-free, each is a
    perfect-sector word of the game, and the process they drive rebuilds
    every complete column of the table (status observed, to that bound).
    ``book``: the table's words by the sector rule when the caller has
    read them already.
    """
    from catalog.compute.dictionary import (
        MAHARAJA_MOVES,
        PAPER_DICTIONARIES,
        read_dictionary,
    )

    if book is None:
        book = read_dictionary(positions, n, game_moves)
    if book.start is None:
        return None
    proved = tuple(sorted(game_moves)) == tuple(sorted(MAHARAJA_MOVES))
    words = PAPER_DICTIONARIES[MAHARAJA_MOVES][1] if proved else book.words
    if not proved and (book.problems or not book.words):
        return None
    try:
        solver = WordFarOut(positions, n, book.start, words, game_moves, base_bits)
    except NotADictionary:
        return None
    count = len(solver.head)
    if not np.array_equal(columns_of(solver, count), solver.head):
        return None
    if proved:
        return Solved(solver, "theorem", PAPER_SOURCE, count)
    return Solved(
        solver,
        "observed",
        "the dictionary read off the table by the sector rule (Larsson–Wästlund, "
        "sections 2 and 4), checked against every complete column",
        count,
    )
