"""Exact quadratic irrationals: the α of a ``beatty`` rule, parsed and compared.

A quadratic irrational is α = (p + q√d)/r with integers p, q ≠ 0, r > 0,
d > 1 square-free and gcd(p, q, r) = 1; that normal form is unique, so two
spellings of one number give one :class:`Quadratic` (equal, same hash, same
``str``). Everything is exact integer arithmetic: ⌊nα⌋ needs one ``isqrt``
of n²q²d, so it stays cheap for n of hundreds of digits.

:func:`parse` reads the contract's notation (integers, ``+ - * /``,
``sqrt( )``, parentheses) with Python's :mod:`ast` in ``eval`` mode, walking
only the allowed nodes: nothing is evaluated by Python itself.

>>> phi = parse("(1+sqrt(5))/2")
>>> str(phi), phi == parse("1/(sqrt(5)-1)*2")
('(1+sqrt(5))/2', True)
>>> [phi.floor_mul(n) for n in range(1, 8)]
[1, 3, 4, 6, 8, 9, 11]
>>> parse("sqrt(3)").periodic_continued_fraction()
((1,), (1, 2))
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from functools import cache
from math import gcd, isqrt, lcm

from catalog.errors import BadInput

#: Most characters of an expression.
MAX_LENGTH = 200
#: Most digits of an integer written in an expression.
MAX_DIGITS = 100
#: Trial division bound for square-free parts: a radicand up to its cube
#: (10^15) is always reduced; a larger one only if what is left is a square.
TRIAL_PRIMES_BELOW = 100_000
#: Steps :meth:`Quadratic.periodic_continued_fraction` takes by default.
MAX_PERIOD_STEPS = 100_000

Rational = int | Fraction
_ALLOWED = re.compile(r"(?:sqrt|[0-9+\-*/() ])*")
_USE = "write integers, + - * /, sqrt( ) and parentheses"


class QuadraticError(BadInput):
    """An expression that is not a quadratic irrational; the one-line message
    says what is wrong (malformed, two roots, a negative radicand, ...)."""


@cache
def _primes() -> tuple[int, ...]:
    sieve = bytearray([1]) * TRIAL_PRIMES_BELOW
    sieve[0:2] = b"\x00\x00"
    for p in range(2, isqrt(TRIAL_PRIMES_BELOW - 1) + 1):
        if sieve[p]:
            sieve[p * p :: p] = bytearray(len(range(p * p, TRIAL_PRIMES_BELOW, p)))
    return tuple(i for i, flag in enumerate(sieve) if flag)


def split_square(n: int) -> tuple[int, int]:
    """(s, d) with n = s²·d and d square-free, for an integer n ≥ 1.

    Trial division by the primes below :data:`TRIAL_PRIMES_BELOW`; once p³
    exceeds what is left, the rest has at most two prime factors, so it is
    a square or square-free.

    >>> split_square(72), split_square(5)
    ((6, 2), (1, 5))
    """
    s, d, m = 1, 1, n
    for p in _primes():
        if p * p * p > m:
            break
        e = 0
        while m % p == 0:
            m //= p
            e += 1
        s *= p ** (e // 2)
        d *= p ** (e % 2)
    else:
        root = isqrt(m)
        if root * root != m and m >= TRIAL_PRIMES_BELOW**3:
            raise QuadraticError(
                f"sqrt of {len(str(n))} digits: too large to find its square-free part"
            )
    root = isqrt(m)
    if root * root == m:
        return s * root, d
    return s, d * m


def _sign(x: int, y: int, d: int) -> int:
    """The sign of x + y√d (d > 1 not a square, so it is 0 only for x = y = 0)."""
    sx, sy = (x > 0) - (x < 0), (y > 0) - (y < 0)
    if sy == 0 or sx == sy:
        return sx
    if sx == 0:
        return sy
    # Opposite signs: the larger square wins (never equal, √d is irrational).
    return sx if x * x > y * y * d else sy


class Quadratic:
    """(p + q√d)/r, kept in normal form (see the module's docstring).

    ``Quadratic(p, q, d, r)`` normalises: a square factor of d moves into q,
    common factors cancel, the sign goes to the numerator. Instances are
    immutable, hashable and ordered (against each other and against ``int``
    and :class:`~fractions.Fraction`), all exactly.
    """

    __slots__ = ("p", "q", "d", "r")
    p: int
    q: int
    d: int
    r: int

    def __init__(self, p: int, q: int, d: int, r: int = 1) -> None:
        if d < 2 or q == 0 or r == 0:
            raise QuadraticError(f"({p}+{q}*sqrt({d}))/{r}: not irrational")
        s, d = split_square(d)
        if d == 1:
            raise QuadraticError(f"({p}+{q}*sqrt({s * s}))/{r}: not irrational")
        q *= s
        if r < 0:
            p, q, r = -p, -q, -r
        g = gcd(p, q, r)
        for name, value in zip("pqdr", (p // g, q // g, d, r // g), strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Quadratic is immutable")

    # -- identity and text ------------------------------------------------

    def _key(self) -> tuple[int, int, int, int]:
        return (self.p, self.q, self.d, self.r)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Quadratic):
            return self._key() == other._key()
        return NotImplemented if not isinstance(other, int | Fraction) else False

    def __hash__(self) -> int:
        return hash(("Quadratic", *self._key()))

    def __str__(self) -> str:
        """The canonical text, which :func:`parse` reads back to ``self``."""
        root = f"sqrt({self.d})"
        surd = root if abs(self.q) == 1 else f"{abs(self.q)}*{root}"
        if self.p == 0:
            top = ("-" if self.q < 0 else "") + surd
            return top if self.r == 1 else f"{top}/{self.r}"
        top = f"{self.p}{'-' if self.q < 0 else '+'}{surd}"
        return top if self.r == 1 else f"({top})/{self.r}"

    def __repr__(self) -> str:
        return f"Quadratic({str(self)!r})"

    # -- exact values -----------------------------------------------------

    def floor_mul(self, n: int) -> int:
        """⌊n·α⌋ for any integer n, exactly.

        n·q·√d lies strictly between consecutive integers (α is irrational),
        so ⌊(np + nq√d)/r⌋ = (np + ⌊nq√d⌋) // r.

        >>> parse("sqrt(2)").floor_mul(10**20)
        141421356237309504880
        """
        if n == 0:
            return 0
        t = n * self.q
        root = isqrt(t * t * self.d)  # ⌊|t|√d⌋
        return (n * self.p + (root if t > 0 else -root - 1)) // self.r

    def __float__(self) -> float:
        k = 64
        while abs(m := self.floor_mul(1 << k)) < 1 << 60:
            k += 64
        return float(Fraction(m, 1 << k))

    def _compare(self, other: object) -> int:
        """-1, 0 or 1 as self <, =, > other."""
        if isinstance(other, int | Fraction):
            u, v = other.numerator, other.denominator
            return _sign(v * self.p - u * self.r, v * self.q, self.d)
        if not isinstance(other, Quadratic):
            raise TypeError(f"cannot compare a Quadratic with {type(other).__name__}")
        if other.d == self.d:
            return _sign(
                self.p * other.r - other.p * self.r,
                self.q * other.r - other.q * self.r,
                self.d,
            )
        # Different fields: the numbers differ, so finer and finer dyadic
        # floors separate them.
        k = 64
        while (a := self.floor_mul(1 << k)) == (b := other.floor_mul(1 << k)):
            k *= 2
        return -1 if a < b else 1

    def __lt__(self, other: object) -> bool:
        return self._compare(other) < 0

    def __le__(self, other: object) -> bool:
        return self._compare(other) <= 0

    def __gt__(self, other: object) -> bool:
        return self._compare(other) > 0

    def __ge__(self, other: object) -> bool:
        return self._compare(other) >= 0

    # -- numbers derived from α -------------------------------------------

    def conjugate(self) -> Quadratic:
        """(p − q√d)/r."""
        return Quadratic(self.p, -self.q, self.d, self.r)

    def reciprocal(self) -> Quadratic:
        """1/α = r(p − q√d)/(p² − q²d)."""
        norm = self.p * self.p - self.q * self.q * self.d  # ≠ 0: α irrational
        return Quadratic(self.r * self.p, -self.r * self.q, self.d, norm)

    def complement(self) -> Quadratic:
        """β = α/(α − 1), so that 1/α + 1/β = 1 (Beatty's partner of α).

        >>> str(parse("sqrt(2)").complement())
        '2+sqrt(2)'
        """
        p, q, d, r = self.p, self.q, self.d, self.r
        s = p - r  # α − 1 = (s + q√d)/r;  β = (p + q√d)(s − q√d)/(s² − q²d)
        return Quadratic(p * s - q * q * d, -q * r, d, s * s - q * q * d)

    # -- continued fractions ----------------------------------------------

    def _cf_state(self) -> tuple[int, int, int]:
        """(P, D, Q) with α = (P + √D)/Q and Q dividing D − P²."""
        big_p, big_d, big_q = self.p, self.q * self.q * self.d, self.r
        if self.q < 0:
            big_p, big_q = -big_p, -big_q
        if (big_d - big_p * big_p) % big_q:
            big_p, big_d, big_q = (
                big_p * abs(big_q),
                big_d * big_q * big_q,
                big_q * abs(big_q),
            )
        return big_p, big_d, big_q

    def _partial_quotients(self, steps: int) -> tuple[list[int], list[tuple[int, int]]]:
        big_p, big_d, big_q = self._cf_state()
        root = isqrt(big_d)
        terms: list[int] = []
        states: list[tuple[int, int]] = []
        for _ in range(steps):
            states.append((big_p, big_q))
            # ⌊(P + √D)/Q⌋; for Q < 0 the open interval flips (see floor_mul).
            a = (big_p + root + (big_q < 0)) // big_q
            terms.append(a)
            big_p = a * big_q - big_p
            big_q = (big_d - big_p * big_p) // big_q
        return terms, states

    def continued_fraction(self, k: int) -> list[int]:
        """The first k partial quotients [a0; a1, a2, …].

        >>> parse("(1+sqrt(5))/2").continued_fraction(5)
        [1, 1, 1, 1, 1]
        """
        return self._partial_quotients(k)[0]

    def periodic_continued_fraction(
        self, max_steps: int = MAX_PERIOD_STEPS
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(pre-period, period): α = [pre; period, period, …] (Lagrange).

        Raises :class:`QuadraticError` if no period shows within
        ``max_steps`` partial quotients (the period can be as long as about
        √D log D for a radicand D).
        """
        big_p, big_d, big_q = self._cf_state()
        root = isqrt(big_d)
        seen: dict[tuple[int, int], int] = {}
        terms: list[int] = []
        while (big_p, big_q) not in seen:
            if len(terms) >= max_steps:
                raise QuadraticError(
                    f"{self}: no period within {max_steps} partial quotients"
                )
            seen[big_p, big_q] = len(terms)
            a = (big_p + root + (big_q < 0)) // big_q
            terms.append(a)
            big_p = a * big_q - big_p
            big_q = (big_d - big_p * big_p) // big_q
        start = seen[big_p, big_q]
        return tuple(terms[:start]), tuple(terms[start:])


# -- the parser -------------------------------------------------------------


class _Value:
    """a + b√d with rational a, b; d = 0 while no root has been taken."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a: Rational, b: Rational = 0, d: int = 0) -> None:
        self.a, self.b, self.d = Fraction(a), Fraction(b), d if b else 0

    def _field(self, other: _Value, text: str) -> int:
        if self.d and other.d and self.d != other.d:
            raise QuadraticError(
                f"{text!r}: two different square roots, sqrt({self.d}) and "
                f"sqrt({other.d}) (not a quadratic irrational)"
            )
        return self.d or other.d

    def combine(self, op: ast.operator, other: _Value, text: str) -> _Value:
        d = self._field(other, text)
        a, b, c, e = self.a, self.b, other.a, other.b
        if isinstance(op, ast.Add):
            return _Value(a + c, b + e, d)
        if isinstance(op, ast.Sub):
            return _Value(a - c, b - e, d)
        if isinstance(op, ast.Mult):
            return _Value(a * c + b * e * d, a * e + b * c, d)
        norm = c * c - e * e * d  # Div: 0 only when c = e = 0
        if norm == 0:
            raise QuadraticError(f"{text!r}: division by zero")
        return _Value((a * c - b * e * d) / norm, (b * c - a * e) / norm, d)


def _evaluate(node: ast.AST, text: str) -> _Value:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        if len(str(node.value)) > MAX_DIGITS:
            raise QuadraticError(
                f"{text!r}: an integer has more than {MAX_DIGITS} digits"
            )
        return _Value(node.value)
    if isinstance(node, ast.BinOp) and isinstance(
        node.op, ast.Add | ast.Sub | ast.Mult | ast.Div
    ):
        left = _evaluate(node.left, text)
        return left.combine(node.op, _evaluate(node.right, text), text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, text)
        sign = -1 if isinstance(node.op, ast.USub) else 1
        return _Value(sign * value.a, sign * value.b, value.d)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "sqrt"
        and len(node.args) == 1
        and not node.keywords
    ):
        return _sqrt(_evaluate(node.args[0], text), text)
    what = type(getattr(node, "op", node)).__name__
    raise QuadraticError(f"{text!r}: malformed ({what} is not allowed): {_USE}")


def _sqrt(value: _Value, text: str) -> _Value:
    if value.b:
        raise QuadraticError(f"{text!r}: sqrt of an irrational number")
    if value.a < 0:
        raise QuadraticError(f"{text!r}: sqrt of a negative number ({value.a})")
    if value.a.denominator != 1:
        raise QuadraticError(f"{text!r}: sqrt of a non-integer ({value.a})")
    n = value.a.numerator
    if n == 0:
        return _Value(0)
    try:
        s, d = split_square(n)
    except QuadraticError as exc:
        raise QuadraticError(f"{text!r}: {exc}") from None
    return _Value(s) if d == 1 else _Value(0, s, d)


def parse(text: str) -> Quadratic:
    """The quadratic irrational an expression denotes, exactly.

    Parameters
    ----------
    text : str
        Integers, ``+ - * /``, ``sqrt( )`` of an integer, parentheses and
        spaces; at most :data:`MAX_LENGTH` characters and integers of at most
        :data:`MAX_DIGITS` digits. Only one square root may occur (up to
        square factors: ``sqrt(8)`` is ``2*sqrt(2)``).

    Returns
    -------
    Quadratic
        The number in normal form; ``str`` of it is the canonical spelling.

    Raises
    ------
    QuadraticError
        With a one-line message: malformed, too long, too large an integer,
        two different square roots, sqrt of a negative, a non-integer or an
        irrational number, division by zero, a rational result.

    References
    ----------
    .. [1] J.-L. Lagrange (1770): the continued fraction of a quadratic
       irrational is eventually periodic; see O. Perron, *Die Lehre von den
       Kettenbrüchen* (1913), ch. III.

    Examples
    --------
    >>> str(parse("2 - sqrt(2)/2")), str(parse("1/(sqrt(3)-1)"))
    ('(4-sqrt(2))/2', '(1+sqrt(3))/2')
    >>> parse("sqrt(-2)")
    Traceback (most recent call last):
    ...
    catalog.games.quadratic.QuadraticError: 'sqrt(-2)': sqrt of a negative number (-2)
    """
    if not isinstance(text, str):
        raise QuadraticError("a quadratic irrational must be given as text")
    if len(text) > MAX_LENGTH:
        raise QuadraticError(f"expression longer than {MAX_LENGTH} characters")
    stripped = text.strip(" ")
    if not stripped:
        raise QuadraticError("empty expression: " + _USE)
    if not _ALLOWED.fullmatch(stripped):
        bad = _ALLOWED.match(stripped).end()  # type: ignore[union-attr]
        raise QuadraticError(f"{text!r}: {stripped[bad]!r} is not allowed: {_USE}")
    try:
        tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError):
        raise QuadraticError(f"{text!r}: malformed: {_USE}") from None
    value = _evaluate(tree.body, text)
    if not value.b:
        raise QuadraticError(f"{text!r}: not irrational (it equals {value.a})")
    r = lcm(value.a.denominator, value.b.denominator)
    return Quadratic(int(value.a * r), int(value.b * r), value.d, r)
