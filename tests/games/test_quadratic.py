"""Exact quadratic irrationals: parsing, normal form, floors, continued fractions."""

from __future__ import annotations

import random
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from catalog.errors import BadInput
from catalog.games.quadratic import (
    MAX_LENGTH,
    Quadratic,
    QuadraticError,
    parse,
    split_square,
)

#: Several spellings of one number each, and its canonical text.
SPELLINGS = [
    (
        "(1+sqrt(5))/2",
        [
            "(1 + sqrt(5)) / 2",
            "1/2+sqrt(5)/2",
            "2/(sqrt(5)-1)",
            "(sqrt(20)+2)/4",
            "-(-1-sqrt(5))/2",
            "(3+sqrt(5))/(1+sqrt(5))",
        ],
    ),
    ("sqrt(2)", ["sqrt(8)/2", "2/sqrt(2)", "sqrt(2)*sqrt(2)*sqrt(2)/2", "+sqrt(2)"]),
    ("(1+sqrt(3))/2", ["1/(sqrt(3)-1)", "(sqrt(12)+2)/4"]),
    ("(4-sqrt(2))/2", ["2-sqrt(2)/2", "2-1/sqrt(2)", "(8-sqrt(8))/4"]),
    ("(3+sqrt(5))/4", ["3/4+sqrt(5)/4", "(6+sqrt(20))/8"]),
    ("-sqrt(2)/2", ["-1/sqrt(2)", "sqrt(2)/-2"]),
    ("2*sqrt(3)/3", ["2/sqrt(3)", "sqrt(12)/3"]),
    ("7-3*sqrt(6)", ["7 - sqrt(54)"]),
]

ERRORS = [
    ("", "empty"),
    ("sqrt(2)+", "malformed"),
    ("sqrt(2", "malformed"),
    ("2**sqrt(2)", "Pow is not allowed"),
    ("2//sqrt(2)", "FloorDiv is not allowed"),
    ("1.5+sqrt(2)", "'.' is not allowed"),
    ("x+sqrt(2)", "'x' is not allowed"),
    ("__import__('os')", "'_' is not allowed"),
    ("sqrt(2,3)", "',' is not allowed"),
    ("sqrt", "Name is not allowed"),
    ("sqrt(2)+sqrt(3)", "two different square roots"),
    ("sqrt(2)*sqrt(3)", "two different square roots"),
    ("sqrt(-2)", "sqrt of a negative"),
    ("sqrt(1/2)", "sqrt of a non-integer"),
    ("sqrt(sqrt(2))", "sqrt of an irrational"),
    ("1/0", "division by zero"),
    ("sqrt(2)/(sqrt(8)-2*sqrt(2))", "division by zero"),
    ("4/2", "not irrational"),
    ("sqrt(9)-1", "not irrational"),
    ("sqrt(2)*sqrt(2)", "not irrational"),
    ("1" * 101 + "+sqrt(2)", "more than 100 digits"),
    ("sqrt(2)" + "+1" * 100, f"longer than {MAX_LENGTH}"),
    (f"sqrt({10**30 + 57})", "too large to find its square-free part"),
]


@pytest.mark.parametrize(("canonical", "spellings"), SPELLINGS)
def test_spellings_of_one_number_are_one_value(canonical, spellings):
    value = parse(canonical)
    assert str(value) == canonical
    for text in spellings:
        other = parse(text)
        assert other == value and hash(other) == hash(value), text
        assert str(other) == canonical, text
    assert parse(str(value)) == value
    assert len({parse(t) for t in [canonical, *spellings]}) == 1


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_errors_name_the_problem(text, message):
    with pytest.raises(QuadraticError) as caught:
        parse(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, BadInput)


def test_not_text_is_refused():
    with pytest.raises(QuadraticError, match="as text"):
        parse(2)  # type: ignore[arg-type]


def test_normal_form():
    value = Quadratic(6, -4, 8, -10)  # (6 - 8√2)/-10 = (-3 + 4√2)/5
    assert (value.p, value.q, value.d, value.r) == (-3, 4, 2, 5)
    assert str(value) == "(-3+4*sqrt(2))/5" and parse(str(value)) == value
    with pytest.raises(QuadraticError, match="not irrational"):
        Quadratic(1, 2, 49)
    assert split_square(2 * 3**4 * 99991**2) == (9 * 99991, 2)
    assert split_square(1_000_003 * 1_000_033) == (1, 1_000_003 * 1_000_033)
    assert split_square(10**40) == (10**20, 1)  # large, but a square


def _decimal(alpha: Quadratic) -> Decimal:
    return (alpha.p + alpha.q * Decimal(alpha.d).sqrt()) / alpha.r


#: Its continued fraction's period is far longer than the default search.
LONG_PERIOD = "(123456789+987654321*sqrt(1000003))/99991"
ALPHAS = [
    "sqrt(2)",
    "(1+sqrt(5))/2",
    "(3+sqrt(5))/4",
    "1/(sqrt(3)-1)",
    "2-sqrt(2)/2",
    "-sqrt(2)/2",
    "7-3*sqrt(6)",
    LONG_PERIOD,
    "1+1/sqrt(1000001)",
    "-5*sqrt(7)/3",
]


@pytest.mark.parametrize("text", ALPHAS)
def test_floor_mul_against_decimal_and_exact_bounds(text):
    alpha = parse(text)
    rng = random.Random(text)
    ns = [
        *range(0, 2000),
        *(rng.randrange(10**k) for k in range(1, 302) for _ in (0, 1)),
    ]
    ns += [10**300, 10**300 + 1, -1, -7, -(10**200)]
    with localcontext() as ctx:
        ctx.prec = 800
        value = _decimal(alpha)
        for n in ns:
            f = alpha.floor_mul(n)
            assert f == int((n * value).to_integral_value(rounding="ROUND_FLOOR")), n
            if n > 0:  # f ≤ nα < f + 1, by the exact comparisons
                assert Fraction(f, n) < alpha < Fraction(f + 1, n), n


def test_comparisons_order_like_the_reals():
    values = [parse(t) for t in ALPHAS] + [parse("sqrt(3)"), parse("(1+sqrt(2))/2")]
    with localcontext() as ctx:
        ctx.prec = 60
        assert sorted(values) == sorted(values, key=_decimal)
        for v in values:
            assert float(v) == pytest.approx(float(_decimal(v)), rel=1e-15)
    alpha = parse("sqrt(2)")
    assert 1 < alpha < 2 and alpha > Fraction(141421356, 10**8) and alpha >= 1
    assert alpha < Fraction(141421357, 10**8) and alpha <= 2 and not alpha > 2
    assert alpha != 2 and alpha != Fraction(3, 2) and alpha != parse("sqrt(3)")
    with pytest.raises(TypeError):
        alpha < 1.5  # noqa: B015


@pytest.mark.parametrize("text", ALPHAS)
def test_reciprocal_conjugate_complement(text):
    alpha = parse(text)
    with localcontext() as ctx:
        ctx.prec = 80
        a = _decimal(alpha)
        assert abs(_decimal(alpha.reciprocal()) * a - 1) < Decimal(10) ** -70
        assert abs(_decimal(alpha.conjugate()) + a - 2 * Decimal(alpha.p) / alpha.r) < (
            Decimal(10) ** -60
        )
        if alpha != 1:
            beta = _decimal(alpha.complement())
            assert abs(1 / a + 1 / beta - 1) < Decimal(10) ** -60


def test_known_complements():
    assert str(parse("sqrt(2)").complement()) == "2+sqrt(2)"
    assert str(parse("(1+sqrt(5))/2").complement()) == "(3+sqrt(5))/2"
    for a in range(1, 8):  # a-Wythoff: β = α + a
        alpha = parse(f"(2-{a}+sqrt({a * a + 4}))/2")
        assert alpha.complement() == parse(f"(2-{a}+sqrt({a * a + 4}))/2+{a}")


def test_continued_fractions():
    assert parse("sqrt(2)").continued_fraction(12) == [1] + [2] * 11
    assert parse("(1+sqrt(5))/2").continued_fraction(40) == [1] * 40
    assert parse("sqrt(3)").continued_fraction(9) == [1, 1, 2, 1, 2, 1, 2, 1, 2]
    assert parse("sqrt(2)").periodic_continued_fraction() == ((1,), (2,))
    assert parse("(1+sqrt(5))/2").periodic_continued_fraction() == ((), (1,))
    assert parse("sqrt(3)").periodic_continued_fraction() == ((1,), (1, 2))
    assert parse("sqrt(7)").periodic_continued_fraction() == ((2,), (1, 1, 1, 4))
    assert parse("(3+sqrt(5))/4").periodic_continued_fraction() == ((1, 3), (4,))
    assert parse("-sqrt(2)/2").periodic_continued_fraction() == ((-1, 3), (2,))
    with pytest.raises(QuadraticError, match="no period within 5"):
        parse("sqrt(1000003)").periodic_continued_fraction(max_steps=5)


@pytest.mark.parametrize("text", ALPHAS)
def test_continued_fraction_agrees_with_decimal_and_period(text):
    alpha = parse(text)
    terms = alpha.continued_fraction(60)
    with localcontext() as ctx:
        ctx.prec = 1500  # partial quotients of 2000 eat 6 digits each
        x, expected = _decimal(alpha), []
        for _ in range(60):
            a = int(x.to_integral_value(rounding="ROUND_FLOOR"))
            expected.append(a)
            x = 1 / (x - a)
    assert terms == expected
    if text == LONG_PERIOD:
        with pytest.raises(QuadraticError, match="no period"):
            alpha.periodic_continued_fraction()
        return
    pre, period = alpha.periodic_continued_fraction()
    unrolled = list(pre) + list(period) * (60 // len(period) + 1)
    assert unrolled[:60] == terms
