"""The bit-string and the dictionary of Maharaja-type games.

U. Larsson and J. Wästlund, *Maharaja Nim: Wythoff's Queen meets the Knight*,
arXiv:1207.0765, sections 2 and 5. A Maharaja-type game is Wythoff's Nim with
a finite set of single moves {(k, l), (l, k)} adjoined; it has one P-position
in every row, column and diagonal, and its P-positions are symmetric. Write
them as the upper P-positions (a_n, b_n), b_n >= a_n, a increasing, a_0 =
b_0 = 0, and their mirror images (eq. 11).

- The *bit-string*: bit i is 0 iff column i holds an upper P-position (column
  0, holding (0, 0) = (a_0, b_0), counts as upper), 1 iff it holds a lower one
  (section 2.1). By symmetry bit j is also 1 iff row j holds an upper one.
- A *(C, X)-perfect sector* is the set of positions right of column X and
  strictly above the diagonal y - x = C, when the upper P-positions in columns
  <= X use exactly the diagonals 0..C (eq. 26) and no move from a P-position in
  those columns lands in the sector (section 2). Then the next upper P-position
  lies on diagonal C + 1 (eq. 25): the game restarts afresh right of X.
- A *word* is the bit-string between two consecutive perfect columns X < X':
  bits X + 1 .. X'. Its *translate* is the bits of rows k + 1 .. k + m + l,
  where k = X + C + 1 is the largest row strictly below the sector, m the
  length of the word and l its number of zeros. Translates continue each other
  and the bit-string (section 2.1), so a finite dictionary of words and
  translates generates the whole bit-string from a prefix.

Two rules decide which columns end a word:

``"sector"``
    The perfect sectors above, with the moves of the game. For Maharaja Nim
    (moves (1, 2), (2, 1)) it reads exactly the paper's dictionary (27)-(35),
    words (36)-(40) never appear, and the first word starts at column 8
    (section 2.2). This is the default.
``"relaxed"``
    Section 5's relaxation of Lemma 2.1: column a_{n-1} ends a word when (25)
    and (26) hold at n, and so does every lower column right after such a
    column (the word '1', "perfect by default"). For (2, 3)-Maharaja Nim it
    reads exactly the non-prefix-free dictionary (41)-(44), first word at
    column 9 (section 5.1); for Maharaja Nim it reads (27)-(35) with the word
    '01' -> '100' split into '0' -> '10' and '1' -> '0'.

The sector rule also reads a finite dictionary for (2, 3)-Maharaja Nim, but a
different, prefix-free one with ten words (first word at column 19); see
``tests/compute/test_dictionary.py``.

Reading starts at the first word that begins with a 0 and whose translate
starts after its own last column: before it, rows and columns interfere (the
paper's words: the y-coordinate of the first P-position of the word exceeds
the x-coordinate of its last one).

Everything here is a pure function of ``p_positions(definition, n)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from catalog.compute.closed import WYTHOFF_RAYS
from catalog.games.definition import Definition, DefinitionError, Vector, canonicalize

Rule = Literal["sector", "relaxed"]

#: Maharaja Nim's Knight moves (section 1).
MAHARAJA_MOVES: tuple[Vector, ...] = ((1, 2), (2, 1))
#: The papers' dictionaries, word -> (translate, equation), and the rule that
#: reads each (sections 2.3 and 5.1). (36)-(40) are in the paper's extended
#: dictionary but, the paper guesses, never appear.
PAPER_DICTIONARIES: dict[
    tuple[Vector, ...], tuple[Rule, dict[str, tuple[str, str]]]
] = {
    MAHARAJA_MOVES: (
        "sector",
        {
            "1": ("0", "(27)"),
            "01": ("100", "(28)"),
            "00100": ("100101100", "(29)"),
            "00110": ("10010100", "(30)"),
            "000100": ("10010110100", "(31)"),
            "001110": ("100100100", "(32)"),
            "0010110": ("10010011000", "(33)"),
            "00000100": ("100101100111000", "(34)"),
            "000010010": ("1001001111000100", "(35)"),
            "0000000": ("10010110110100", "(36)"),
            "0010100": ("100100110100", "(37)"),
            "0011110": ("1001000100", "(38)"),
            "00000010": ("100101101100100", "(39)"),
            "00001000": ("100100111100100", "(40)"),
        },
    ),
    ((2, 3), (3, 2)): (
        "relaxed",
        {
            "0": ("10", "(41)"),
            "1": ("0", "(42)"),
            "01000": ("100011100", "(43)"),
            "01010": ("10001100", "(44)"),
        },
    ),
}
#: Default bound of :func:`maharaja_invariants`: about 38,000 columns read.
DEFAULT_N = 100_000
#: Problems kept by :func:`read_dictionary`; a last line counts the rest.
MAX_PROBLEMS = 20


def is_maharaja_type(game: Definition) -> bool:
    """Is ``game`` Wythoff's Nim with mirrored single moves adjoined (section 4)?

    Wythoff's rays, no rule of another kind, and a non-empty set of
    single moves (p, q) with p, q > 0 and p != q that holds (q, p) with (p, q).
    """
    if game.rays != WYTHOFF_RAYS or game.beyond("rays", "moves") or not game.moves:
        return False
    moves = set(game.moves)
    return all(p > 0 and q > 0 and p != q and (q, p) in moves for p, q in moves)


def bit_text(flags: np.ndarray) -> str:
    """The flags as a string of 0s and 1s (nonzero is 1), at numpy speed:
    no Python object a bit (a generator was most of :func:`read_dictionary`).

    >>> bit_text(np.array([True, False, True]))
    '101'
    """
    bits = (np.asarray(flags) != 0).astype(np.uint8) + ord("0")
    return bits.tobytes().decode("ascii")


def column_values(positions: np.ndarray, n: int) -> np.ndarray:
    """y(x) for the complete columns x = 0, 1, ..., c - 1.

    ``positions`` is ``p_positions(definition, n)``. Column x is complete when
    its P-position (upper or lower) lies below ``n``; the result stops at the
    first column whose P-position is missing.

    Raises
    ------
    ValueError
        When a column holds two P-positions.
    """
    xs = positions[:, 0]
    if np.any(np.diff(xs) <= 0):
        raise ValueError("a column holds two P-positions")
    known = xs == np.arange(len(xs))
    c = len(xs) if known.all() else int(np.argmin(known))
    return positions[: min(c, n), 1].astype(np.int64)


def bitstring(positions: np.ndarray, n: int) -> np.ndarray:
    """The bit-string over the complete columns (section 2.1), as uint8.

    Bit i is 0 iff column i holds an upper P-position (y >= x), 1 iff a lower.
    """
    ys = column_values(positions, n)
    return (ys < np.arange(len(ys))).astype(np.uint8)


def upper_pairs(positions: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(a, b): the upper P-positions (a_n, b_n) of eq. (11) in complete columns."""
    ys = column_values(positions, n)
    a = np.flatnonzero(ys >= np.arange(len(ys)))
    return a, ys[a]


@dataclass(frozen=True)
class Deviations:
    """b_n - a_n - n over the known upper P-positions (end of section 2).

    ``first_min`` and ``first_max`` are the least n where the extremes occur.
    """

    min: int
    max: int
    first_min: int
    first_max: int
    n_terms: int


def deviations(positions: np.ndarray, n: int) -> Deviations:
    """The range of b_n - a_n - n; [-4, 3] for Maharaja Nim (end of section 2)."""
    a, b = upper_pairs(positions, n)
    d = b - a - np.arange(len(a))
    i, j = int(np.argmin(d)), int(np.argmax(d))
    return Deviations(int(d[i]), int(d[j]), i, j, len(d))


def _trailing_max(values: np.ndarray, width: int) -> np.ndarray:
    """out[i] = max(values[i - width + 1 : i + 1]), by a sparse table."""
    lowest = np.iinfo(np.int64).min
    padded = np.concatenate([np.full(width - 1, lowest, dtype=np.int64), values])
    table, span = padded, 1
    while 2 * span <= width:  # table[i] = max(padded[i : i + span])
        table = np.maximum(table[:-span], table[span:])
        span *= 2
    m = len(values)
    return np.maximum(table[:m], table[width - span : width - span + m])


def perfect_columns(
    positions: np.ndarray,
    n: int,
    moves: Iterable[Vector] = MAHARAJA_MOVES,
    *,
    rule: Rule = "sector",
) -> np.ndarray:
    """A boolean array over the complete columns: which columns end a word.

    ``"sector"``: column X is perfect (section 2) when the upper P-positions in
    columns <= X lie on exactly the diagonals 0..C (eq. 26) and no single move
    (p, q) from a P-position (x, y), x <= X, upper or lower, lands in the
    sector: x + p > X and (y + q) - (x + p) > C. Only moves with q > p can.

    ``"relaxed"``: column a_{n-1} when (26) holds and b_n - a_n = n (eq. 25)
    (Lemma 2.1 as used in section 5), and every lower column that follows it;
    ``moves`` is not used. Columns from the last known a_n on are undecided
    and left False.
    """
    ys = column_values(positions, n)
    c = len(ys)
    cols = np.arange(c)
    upper = ys >= cols
    diagonal = ys - cols
    count = np.cumsum(upper)
    top = count - 1  # C: the diagonals 0..C of the upper P-positions so far
    used = np.maximum.accumulate(np.where(upper, diagonal, -1))
    ok = used == top  # diagonals are distinct, so this is eq. (26)
    if rule == "sector":
        for p, q in moves:
            if q > p:
                ok &= _trailing_max(diagonal + (q - p), p) <= top
        return ok
    a = np.flatnonzero(upper)
    if len(a) == 0:
        return ok
    d = diagonal[a]
    next_on_diagonal = np.zeros(len(a), dtype=bool)
    next_on_diagonal[:-1] = d[1:] == np.arange(1, len(a))  # eq. (25)
    return (ok[a] & next_on_diagonal)[top] & (cols < a[-1])


class Parse(Sequence[tuple[int, str]]):
    """The (column, word) of every word read, in order: a sequence equal to
    the tuple of those pairs, which it builds only when asked (a reading at
    n = 10^5 parses some 38,000 words; building their pairs was most of
    its time, and the invariants never ask).

    >>> parse = Parse(np.array([3, 5, 6]), np.array([0, 1, 0]), ["01", "1"])
    >>> parse[1], parse[-1:], len(parse), parse == ((3, "01"), (5, "1"), (6, "01"))
    ((5, '1'), ((6, '01'),), 3, True)
    """

    def __init__(self, starts: np.ndarray, ids: np.ndarray, names: list[str]) -> None:
        self._starts, self._ids, self._names = starts, ids, names

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        if isinstance(index, slice):
            starts, ids = self._starts[index].tolist(), self._ids[index].tolist()
            return tuple(zip(starts, [self._names[i] for i in ids], strict=True))
        return int(self._starts[index]), self._names[self._ids[index]]

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return iter(self[:])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Parse | tuple):
            return len(self) == len(other) and self[:] == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self[:])

    def __repr__(self) -> str:
        return f"Parse({self[:]!r})"


@dataclass(frozen=True)
class Dictionary:
    """The dictionary read off the bit-string (sections 2.3 and 5.1).

    Attributes
    ----------
    words : word -> translate, in order of first occurrence.
    first : word -> the first column where it starts.
    counts : word -> how many times it was read.
    start : column of the first word read (None when no word was read).
    columns : the words read cover columns start .. start + columns - 1.
    bits : length of the known bit-string (the complete columns).
    problems : a word read with two translates, a translate that does not
        continue the previous one or differs from the bit-string, a word that
        overlaps its translate. Empty for Maharaja Nim and (2, 3)-Maharaja Nim.
    parse : (column, word) for every word read, in order.
    rule : the rule that ended the words.
    """

    words: dict[str, str]
    first: dict[str, int]
    counts: dict[str, int]
    start: int | None
    columns: int
    bits: int
    problems: tuple[str, ...]
    parse: Sequence[tuple[int, str]]
    rule: Rule


def read_dictionary(
    positions: np.ndarray,
    n: int,
    moves: Iterable[Vector] = MAHARAJA_MOVES,
    *,
    rule: Rule = "sector",
) -> Dictionary:
    """Read the words and translates off ``positions = p_positions(game, n)``.

    ``moves`` are the game's single moves (Maharaja Nim's by default); the
    sector rule needs them (see :func:`perfect_columns`). A word runs from
    just right of one perfect column X to the next one X'; its translate is
    the bits of rows k + 1 .. k + m + l with k = X + C + 1 (section 2.1), read
    from the rows of the upper P-positions and compared with the bit-string.
    Reading starts at the first word beginning with 0 whose translate starts
    after its last column, and stops when a word or its translate would run
    past the known bits. Problems are reported, not hidden.
    """
    ys = column_values(positions, n)
    c = len(ys)
    zero = ys >= np.arange(c)  # bit x is 0: column x holds an upper position
    text = bit_text(~zero)
    in_row = np.zeros(max(n, c), dtype=np.uint8)
    upper = positions[positions[:, 1] > positions[:, 0]]
    in_row[upper[:, 1]] = 1  # row j holds an upper P-position
    rows = bit_text(in_row[:c])
    perfect = np.flatnonzero(perfect_columns(positions, n, moves, rule=rule))
    # Word i runs over the columns x+1 .. x'; its translate over the rows
    # k+1 .. stop-1, k = X + C + 1 with C + 1 upper P-positions in columns
    # <= X. Reading stops before the first word whose translate runs past
    # the known bits, and starts at the first word beginning with 0 whose
    # translate starts after it.
    x, x_next = perfect[:-1], perfect[1:]
    zeros = np.r_[0, np.cumsum(zero)]
    k = x + np.cumsum(zero)[x]
    stop = k + 1 + (x_next - x) + zeros[x_next + 1] - zeros[x + 1]
    over = np.flatnonzero(stop > c)
    last = int(over[0]) if over.size else len(x)
    eligible = np.flatnonzero(zero[x[:last] + 1] & (k[:last] >= x_next[:last]))
    if not eligible.size:
        return Dictionary({}, {}, {}, None, 0, c, (), (), rule)
    i0 = int(eligible[0])
    x, x_next, k, stop = x[i0:last], x_next[i0:last], k[i0:last], stop[i0:last]
    starts = (x + 1).tolist()
    # Equal words (and equal translates) by numbering the distinct strings,
    # at numpy speed: one Python string a distinct word, not one a word read.
    ids, firsts = _classes(text, x + 1, x_next - x)
    tids, _ = _classes(rows, k + 1, stop - k - 1)
    names = [text[s : s + length] for s, length in _spans(x + 1, x_next - x, firsts)]
    first_translate = [
        rows[s : s + length] for s, length in _spans(k + 1, stop - k - 1, firsts)
    ]
    # Problems, each where the loop of the paper's reading meets it.
    differs = np.frombuffer(text.encode(), np.uint8) != np.frombuffer(
        rows.encode(), np.uint8
    )
    wrong = np.r_[0, np.cumsum(differs)]
    # (Consecutive translates always abut: the next word's k is this one's
    # k + |w| + zeros(w), its stop - 1, as C counts the zeros read.)
    overlaps = k < x_next
    unlike = wrong[stop] - wrong[k + 1] > 0
    twice = tids != tids[firsts[ids]]  # another translate than the first's
    problems: list[str] = []
    # Written out up to the first MAX_PROBLEMS + 1 (the rest only counted).
    total = int(overlaps.sum() + unlike.sum() + twice.sum())
    for i in np.flatnonzero(overlaps | unlike | twice).tolist():
        if len(problems) > MAX_PROBLEMS:
            break
        word, s, translate = names[ids[i]], starts[i], rows[k[i] + 1 : stop[i]]
        if overlaps[i]:
            problems.append(f"word {word} at column {s} overlaps its translate")
        if unlike[i]:
            problems.append(
                f"translate {translate} of {word} at column {s} is not the "
                f"bit-string {text[k[i] + 1 : stop[i]]}"
            )
        if twice[i]:
            problems.append(
                f"word {word} at column {s} translates to {translate}, "
                f"at column {starts[firsts[ids[i]]]} to {first_translate[ids[i]]}"
            )
    if total > MAX_PROBLEMS:
        problems[MAX_PROBLEMS:] = [f"... and {total - MAX_PROBLEMS} more problems"]
    end = int(x_next[-1]) + 1
    return Dictionary(
        words=dict(zip(names, first_translate, strict=True)),
        first={w: starts[i] for w, i in zip(names, firsts.tolist(), strict=True)},
        counts=dict(zip(names, np.bincount(ids).tolist(), strict=True)),
        start=starts[0],
        columns=end - starts[0],
        bits=c,
        problems=tuple(problems),
        parse=Parse(x + 1, ids, names),
        rule=rule,
    )


#: Most bytes :func:`_classes` lays out at once (strings past it are
#: numbered by a dict of their slices instead).
MAX_CLASS_BYTES = 1 << 22


def _spans(
    starts: np.ndarray, lengths: np.ndarray, chosen: np.ndarray
) -> list[tuple[int, int]]:
    return list(zip(starts[chosen].tolist(), lengths[chosen].tolist(), strict=True))


def _classes(
    text: str, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Number the strings ``text[s : s + length]`` by their first occurrence:
    ``ids[i]`` is the number of string i (0 for the first string, then 1 for
    the first string unlike it, ...), ``firsts[j]`` the index of the first
    string numbered j.

    The strings are laid out as the rows of a byte matrix (padded past their
    length with a byte no string holds) and numbered by ``np.unique``.

    >>> _classes("0101101", np.array([0, 2, 1, 4]), np.array([2, 2, 2, 1]))
    (array([0, 0, 1, 2]), array([0, 2, 3]))
    """
    count = len(starts)
    width = int(lengths.max()) if count else 0
    if count * width > MAX_CLASS_BYTES:
        seen: dict[str, int] = {}
        numbers = [
            seen.setdefault(text[s : s + length], len(seen))
            for s, length in zip(starts.tolist(), lengths.tolist(), strict=True)
        ]
        ids = np.array(numbers, dtype=np.int64)
        firsts = np.full(len(seen), count, dtype=np.int64)
        np.minimum.at(firsts, ids, np.arange(count))
        return ids, firsts
    data = np.frombuffer(text.encode(), np.uint8)
    offsets = np.arange(width)
    inside = offsets < lengths[:, None]
    where = np.minimum(starts[:, None] + offsets, len(data) - 1)
    matrix = np.where(inside, data[where], np.uint8(0))
    if width <= 8:  # each row one integer: a faster sort than of bytes
        matrix = np.pad(matrix, ((0, 0), (0, 8 - width)))
        rows = np.ascontiguousarray(matrix).view("<u8")
    else:
        rows = np.ascontiguousarray(matrix).view(np.dtype((np.void, width)))
    _, first, inverse = np.unique(rows.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank[inverse.ravel()], first[order]


def maharaja_invariants(
    definition: Mapping[str, Any] | Definition,
    n: int = DEFAULT_N,
    *,
    rule: Rule = "sector",
) -> dict[str, Any]:
    """The deviations and the dictionary of a Maharaja-type game, JSON-ready.

    Raises
    ------
    DefinitionError
        When the game is not of Maharaja type (:func:`is_maharaja_type`).
    """
    game = canonicalize(definition)
    if not is_maharaja_type(game):
        raise DefinitionError(
            "definition: not Wythoff's Nim with mirrored single moves adjoined"
        )
    from catalog.compute.ptable import p_positions  # the sweep, only to compute

    positions = p_positions(game, n)
    dev = deviations(positions, n)
    book = read_dictionary(positions, n, game.moves, rule=rule)
    return {
        "bitstring_deviation": {"min": dev.min, "max": dev.max, "n_terms": dev.n_terms},
        "dictionary": dict(book.words),
        "dictionary_first": dict(book.first),
        "dictionary_counts": dict(book.counts),
        "dictionary_start": book.start,
        "dictionary_columns": book.columns,
        "problems": list(book.problems),
    }
