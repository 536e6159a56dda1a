"""Beatty pairs written again for the tests, from Beatty's theorem alone.

α is given by hand as (p + q√d)/r (the table :data:`ALPHAS`, each entry
checked against a float in :func:`check_table`), ⌊kα⌋ is one ``isqrt``,
and the partner sequence is not computed from β at all: by Beatty's
theorem ⌊kβ⌋ is the k-th positive integer missing from ⌊jα⌋, j ≥ 1. So a
test compares the catalog (``Quadratic``, ``BeattyPairs``, the engine) with
a second derivation, not with itself.
"""

from __future__ import annotations

from math import isqrt, sqrt

Alpha = tuple[int, int, int, int]

#: Spellings of α in (1, 2) and their (p, q, d, r): α = (p + q√d)/r.
ALPHAS: dict[str, Alpha] = {
    "(1+sqrt(5))/2": (1, 1, 5, 2),  # φ: Wythoff's Nim
    "sqrt(2)": (0, 1, 2, 1),  # also 2-Wythoff's (Fraenkel 1982)
    "sqrt(3)": (0, 1, 3, 1),
    "(1+sqrt(3))/2": (1, 1, 3, 2),
    "(3+sqrt(5))/4": (3, 1, 5, 4),
    "(-1+sqrt(13))/2": (-1, 1, 13, 2),  # 3-Wythoff's
    "sqrt(5)-1": (-1, 1, 5, 1),  # 4-Wythoff's
    "(-3+sqrt(29))/2": (-3, 1, 29, 2),  # 5-Wythoff's
    "2-sqrt(2)/2": (4, -1, 2, 2),  # a negative surd
    "(9-sqrt(5))/4": (9, -1, 5, 4),
    "(1+sqrt(7))/3": (1, 1, 7, 3),
    "sqrt(7)-1": (-1, 1, 7, 1),
}
#: a-Wythoff's α = (2 − a + √(a² + 4))/2 (Fraenkel 1982), by a.
AWYTHOFF = {2: "sqrt(2)", 3: "(-1+sqrt(13))/2", 4: "sqrt(5)-1", 5: "(-3+sqrt(29))/2"}


def check_table() -> None:
    for text, (p, q, d, r) in ALPHAS.items():
        value = (p + q * sqrt(d)) / r
        spelled = eval(text, {"sqrt": sqrt})  # noqa: S307  (our own constants)
        assert 1 < value < 2 and abs(value - spelled) < 1e-12, text


def floor_mul(alpha: Alpha, k: int) -> int:
    """⌊kα⌋ for k ≥ 0: kq√d is irrational for k > 0, so
    ⌊(kp + kq√d)/r⌋ = (kp + ⌊kq√d⌋) // r."""
    p, q, d, r = alpha
    if k == 0:
        return 0
    root = isqrt(k * k * q * q * d)
    surd = root if q > 0 else -root - 1
    return (k * p + surd) // r


def pairs(alpha: Alpha, n: int) -> set[tuple[int, int]]:
    """{(0, 0)} and every (⌊kα⌋, ⌊kβ⌋) and its mirror with both below n."""
    lower = []
    k = 1
    while (a := floor_mul(alpha, k)) < n:
        lower.append(a)
        k += 1
    taken = set(lower)
    upper = [m for m in range(1, n) if m not in taken]
    out = {(0, 0)}
    for a, b in zip(lower, upper, strict=False):  # b_k: the k-th one missing
        out |= {(a, b), (b, a)}
    return out


def lower_index(alpha: Alpha, x: int) -> int | None:
    """k with ⌊kα⌋ = x, or None: the least k with ⌊kα⌋ >= x, by bisection
    around x/α (α to twice x's digits: off by less than one)."""
    scale = 10 ** (2 * len(str(x)) + 4)
    guess = x * scale // floor_mul(alpha, scale)
    lo, hi = max(0, guess - 2), guess + 3  # ⌊(guess + 3)α⌋ > x
    while lo < hi:
        mid = (lo + hi) // 2
        if floor_mul(alpha, mid) >= x:
            hi = mid
        else:
            lo = mid + 1
    return lo if floor_mul(alpha, lo) == x else None


def partner(alpha: Alpha, x: int) -> int:
    """The other pile of the Beatty pair holding x > 0, at any size: x is
    ⌊kα⌋ or ⌊kβ⌋ for one k (Beatty), found by bisection; β exactly as
    written below (:func:`pairs` checks it against the complement in the
    tests)."""
    p, q, d, r = alpha
    # β = α/(α − 1) = (p + q√d)(p − r − q√d) / ((p − r)² − q²d), exactly.
    s = p - r
    beta = (p * s - q * q * d, -q * r, d, s * s - q * q * d)
    if beta[3] < 0:
        beta = (-beta[0], -beta[1], d, -beta[3])
    k = lower_index(alpha, x)
    if k is not None:
        return floor_mul(beta, k)
    k = lower_index(beta, x)
    assert k is not None, "Beatty's theorem: x is in one of the two sequences"
    return floor_mul(alpha, k)


def is_pair(alpha: Alpha, x: int, y: int) -> bool:
    return (x, y) == (0, 0) or (x > 0 and partner(alpha, x) == y)
