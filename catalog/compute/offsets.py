"""Offset, defects and saturation of an altered Wythoff game (Hu–Sleator–Tsin).

- Saturation (Lemma 2): the first natural column t whose used diagonals form
  one interval; l_t, u_t and the bitstring S_t = row_t[l_t..u_t] there.
- Offset (Theorem 3): run the columns up to the last altered one, count the
  rows r, diagonals d and columns c that hold P-positions; the P-positions
  shifted by (d − c, d − r) are asymptotically equal to Wythoff's (Theorem 1).
  For Box(a, b) forced to P this is (b − 1, a − 1) (Theorem 2).
- Defects (section 4): align the entry's bitstring at time t + k with
  Wythoff's at time t + k + dx (the two have the same length), wait until
  they are balanced (same number of ones, Lemma 4), and measure the area
  between them: Σ_x |h_S(x) − h_T(x)|, h(x) the ones before the (x+1)-th
  zero, which is Σ_x |z_S(x) − z_T(x)| over the positions z(x) of the zeros.
  Applying w keeps it (Lemmas 5 and 6); we check it at later balanced times.
- Overlap: |A' ∩ B| / |A' ∪ B| in the box [0, n)² for growing n, A' the
  shifted P-positions and B Wythoff's: the data's side of Theorem 1.

Everything is a pure function of the definition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from catalog.compute import closed
from catalog.compute.altered import Saturation, row_stream, saturation
from catalog.compute.altered import p_positions as altered_positions
from catalog.games.definition import Definition

#: Box sizes for the overlap check: 2^4 … 2^16.
OVERLAP_SIZES = tuple(2**k for k in range(4, 17))

#: Balanced times at which the area is measured and compared.
BALANCED_CHECKS = 4

#: How far past saturation to look for a balanced time. Lemma 4 promises one,
#: but it can come late: for Box(1, h) after about 0.53·h² steps. Past this
#: (Box(1, h) with h above about 4000) the defects are reported as unknown.
MAX_ALIGN_STEPS = 1 << 23

#: Further w-images are checked while they lie within this many steps.
CHECK_STEPS = 1 << 21


class TheoremViolated(AssertionError):
    """A computed invariant disagrees with a proved theorem: a bug, never data."""


class BalancesTooLate(Exception):
    """The aligned bitstrings are not balanced within :data:`MAX_ALIGN_STEPS`."""


def applies(game: Definition) -> bool:
    """Wythoff's rays with only an alteration (possibly none): Theorem 1's games."""
    return game.rays == closed.WYTHOFF_RAYS and not game.beyond("rays", "alter")


def last_altered_column(game: Definition) -> int:
    """c = t in Theorem 3: one more than the last column holding an altered cell."""
    return 1 + max((x for x, _ in game.forced_p + game.forced_n), default=-1)


@dataclass(frozen=True)
class Offset:
    dx: int
    dy: int
    rows: int
    diagonals: int
    columns: int


def theorem3(game: Definition, sat: Saturation) -> Offset:
    """(d − c, d − r) from the P-positions in the altered columns."""
    c = last_altered_column(game)
    head = sat.positions[sat.positions[:, 0] < c]
    r = int(np.unique(head[:, 1]).size)
    d = int(np.unique(head[:, 1] - head[:, 0]).size)
    return Offset(d - c, d - r, r, d, c)


def _first_bits(stream: np.ndarray) -> np.ndarray:
    """The first bit of S_{t+k} for k = 0, 1, …: a 0 is read as 0 then 1."""
    zeros = stream == 0
    out = np.ones(stream.size + int(zeros.sum()), dtype=np.int8)
    starts = np.arange(stream.size) + np.concatenate([[0], np.cumsum(zeros)[:-1]])
    out[starts[zeros]] = 0
    return out


class Evolution:
    """S_{t+k} for k ≥ 0, from the saturated S_t and the Wythoff update."""

    def __init__(self, sat: Saturation, steps: int) -> None:
        self.size = int(sat.bits.size)
        # Each step consumes at most one symbol and appends at most three.
        self.stream = row_stream(sat.bits, self.size + 3 * steps + 3)
        firsts = _first_bits(self.stream[: max(steps, 1) + self.size])[:steps]
        self.firsts = firsts
        # ones(S_{t+k}) grows by one exactly when the first bit is 0.
        ones = np.empty(firsts.size + 1, dtype=np.int64)
        ones[0] = int(sat.bits.sum())
        np.cumsum(firsts == 0, out=ones[1:])
        ones[1:] += ones[0]
        self.ones = ones

    def state(self, k: int) -> np.ndarray:
        """S_{t+k}: a suffix of R, its first bit set to 1 halfway through a 0."""
        firsts = self.firsts[:k]
        # Symbols fully read: every 1 among the first bits ends one symbol.
        done = int((firsts == 1).sum())
        length = self.size + k
        if k and firsts[-1] == 0:
            state = self.stream[done : done + length].copy()
            state[0] = 1
            state[-1] = 0
            return state
        return self.stream[done : done + length].copy()


def area(s: np.ndarray, t: np.ndarray) -> int:
    """The area between two balanced bitstrings (section 4)."""
    if s.size != t.size or int(s.sum()) != int(t.sum()):
        raise ValueError("the area is defined for balanced bitstrings only")
    return int(np.abs(np.flatnonzero(s == 0) - np.flatnonzero(t == 0)).sum())


@dataclass(frozen=True)
class Defects:
    count: int
    #: Aligned times (altered column t + k) where the strings were balanced
    #: and the area was measured, all giving ``count``.
    balanced_at: tuple[int, ...]


WYTHOFF = Saturation(
    column=0,
    low=0,
    high=0,
    bits=np.ones(1, dtype=np.int8),
    positions=np.zeros((1, 2), dtype=np.int64),
)


def defects(sat: Saturation, dx: int, checks: int = BALANCED_CHECKS) -> Defects:
    """The area at the first balanced aligned time and at the times w carries
    it to (after |S| + 0_S updates both strings are w of what they were, so
    balanced again, section 4); all must agree (Lemmas 5 and 6).

    Each w-image is about 2.6 times longer, so for a long S_t only the first
    image is checked beyond :data:`CHECK_STEPS` steps, and none beyond
    :data:`MAX_ALIGN_STEPS`.
    """
    size = int(sat.bits.size)
    shift = sat.column + dx  # Wythoff's step index minus ours
    first = max(0, -shift)  # Wythoff's time must be ≥ 0
    steps = 4 * (size + first) + 64
    while True:
        ours = Evolution(sat, steps)
        theirs = Evolution(WYTHOFF, steps + shift + 1)
        ks = np.arange(first, steps)
        balanced = ks[ours.ones[ks] == theirs.ones[ks + shift]]
        if balanced.size:
            times = _w_images(int(balanced[0]), ours.ones, size, checks, steps)
            if times[-1] < steps:
                break
            steps = times[-1] + 1  # the w-images need a little more
        elif steps >= MAX_ALIGN_STEPS:
            raise BalancesTooLate(
                f"the aligned bitstrings are not balanced within {steps} steps"
            )
        else:
            steps = min(4 * steps, MAX_ALIGN_STEPS)
    try:
        areas = [area(ours.state(k), theirs.state(k + shift)) for k in times]
    except ValueError as exc:  # pragma: no cover - section 4
        raise TheoremViolated(f"w did not keep the strings balanced: {exc}") from exc
    if len(set(areas)) != 1:  # pragma: no cover - Lemmas 5 and 6
        raise TheoremViolated(f"the area changed under w: {areas} at {times}")
    return Defects(areas[0], tuple(sat.column + k for k in times))


def _w_images(
    first: int, ones: np.ndarray, size: int, checks: int, steps: int
) -> list[int]:
    """``first`` and the times w carries it to: k → k + |S_k| + 0_{S_k}.
    Stops at ``checks`` times, past :data:`CHECK_STEPS` once two are known,
    or at the first time beyond ``steps`` (the caller then computes more)."""
    times = [first]
    while len(times) < checks and times[-1] < steps:
        k = times[-1]
        length = size + k
        following = k + length + (length - int(ones[k]))
        if following > max(CHECK_STEPS, steps) and (
            len(times) >= 2 or following > MAX_ALIGN_STEPS
        ):
            break  # enough checks, or the next one would cost too much
        times.append(following)
    return times


def overlap(
    game: Definition,
    dx: int,
    dy: int,
    sizes: tuple[int, ...] = OVERLAP_SIZES,
    sat: Saturation | None = None,
) -> list[tuple[int, float]]:
    """|A' ∩ B| / |A' ∪ B| in [0, n)² for each n: A' the P-positions shifted
    by (dx, dy), B Wythoff's. ``sat`` saves sweeping to saturation again."""
    top = max(sizes)
    reach = top + max(0, -dx, -dy)
    if game.altered:
        ours = altered_positions(game, reach, sat)
    else:
        ours = closed.p_positions(reach)
    ours = ours + np.array([dx, dy])
    ours = ours[(ours >= 0).all(axis=1) & (ours < top).all(axis=1)]
    theirs = closed.p_positions(top)
    theirs = theirs[(theirs < top).all(axis=1)]
    # One intersection in the largest box: every column of Wythoff's Nim
    # holds exactly one P-position, so a point of ours is one of theirs iff
    # it is the one of its column. A point lies in [0, n)² iff its larger
    # coordinate is below n.
    in_column = np.full(top, -1, dtype=np.int64)
    in_column[theirs[:, 0]] = theirs[:, 1]
    common = ours[in_column[ours[:, 0]] == ours[:, 1]]
    reaches = [ours.max(axis=1), theirs.max(axis=1), common.max(axis=1)]
    out = []
    for n in sizes:
        a, b, both = (int(np.count_nonzero(r < n)) for r in reaches)
        union = a + b - both
        out.append((n, both / union if union else 1.0))
    return out


def altered_invariants(game: Definition) -> dict[str, Any] | None:
    """Saturation, offset, defects and the overlap check, or None where the
    theorems do not apply. JSON-ready."""
    if not applies(game):
        return None
    sat = saturation(game) if game.altered else WYTHOFF
    offset = theorem3(game, sat)
    if offset.dx != sat.high - sat.low - sat.column:
        # Theorem 1's proof gives Δx = u_t − l_t − t at any saturated time.
        raise TheoremViolated(f"Theorem 3's dx {offset.dx} is not u_t − l_t − t")
    try:
        found: Defects | None = defects(sat, offset.dx)
    except BalancesTooLate:
        found = None
    ratios = overlap(game, offset.dx, offset.dy, sat=sat if game.altered else None)
    return {
        "offset": {"dx": offset.dx, "dy": offset.dy},
        "offset_method": "theorem-2" if _is_box(game) else "theorem-3",
        "theorem3": {
            "rows": offset.rows,
            "diagonals": offset.diagonals,
            "columns": offset.columns,
        },
        "saturation": {
            "column": sat.column,
            "low": sat.low,
            "high": sat.high,
            "bits": "".join(map(str, sat.bits.tolist())),
        },
        "defects": found.count if found else None,
        "defects_balanced_at": list(found.balanced_at) if found else [],
        "overlap": [[n, round(ratio, 6)] for n, ratio in ratios],
    }


def _is_box(game: Definition) -> bool:
    """Is the alteration exactly Box(a, b) forced to P (Theorem 2's case)?"""
    if game.forced_n or not game.forced_p:
        return False
    a = 1 + max(x for x, _ in game.forced_p)
    b = 1 + max(y for _, y in game.forced_p)
    return len(game.forced_p) == a * b
