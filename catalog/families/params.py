"""The parameters of a family: their values, label text and slot offsets.

Three kinds, each read from a family file's ``parameters`` list:

- ``{"name": "k", "type": "int", "min": 1, "max": 16}``: the integers
  min..max, written in labels as plain ASCII digits;
- ``{"name": "kind", "type": "enum", "values": ["P", "N"]}``: one of the
  listed words; a value may also be an object ``{"code": "sqrt2", "value":
  "sqrt(2)"}``: the code is what labels, filters and tables write, the value
  what the definition template and the texts get. With ``"number":
  "quadratic"`` every value is an exact quadratic irrational
  (:mod:`catalog.games.quadratic`), written in its canonical form, and the
  texts may also use ``{alpha.cf}`` (its continued fraction), ``{alpha.beta}``
  (β = α/(α − 1)) and ``{alpha.approx}`` (six digits) besides ``{alpha}`` and
  ``{alpha.code}``;
- ``{"name": "rays", "type": "subset", "pool": [[1, 0], [0, 1], ...]}``: a
  non-empty subset of the pool, written in labels as its pairs ``a-b`` in pool
  order, one label component each (so it must be the last parameter).

Every value has an **offset**: its distance from the start of the range (int),
its position in ``values`` (enum) or the bit mask of its pairs over the pool
(subset). Offsets do not depend on where a range ends, so a range may grow at
its end (a larger ``max``, more ``values``, pairs appended to the pool)
without changing the offset of any value it had before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from catalog.errors import BadInput
from catalog.games.quadratic import Quadratic, QuadraticError
from catalog.games.quadratic import parse as parse_quadratic

NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
DIGITS = re.compile(r"(0|[1-9][0-9]*)\Z", re.ASCII)
PAIR = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)\Z", re.ASCII)

#: Largest integer a parameter range may reach (labels stay short).
MAX_INT = 1_000_000
#: Largest subset pool (its masks are slot offsets: 2**16 of them).
MAX_POOL = 16
#: What an enum's ``number`` may say its values are.
NUMBERS = ("quadratic",)
#: The text fields of a value besides ``{k}``: ``{k.code}`` for an enum with
#: object values, and these too for a quadratic one.
QUADRATIC_FIELDS = ("cf", "beta", "approx")

Pair = tuple[int, int]


class LabelError(BadInput):
    """A label that names no member of its family; the message says why."""


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str
    min: int = 0
    max: int = 0
    values: tuple[str, ...] = ()
    pool: tuple[Pair, ...] = ()
    #: An enum's value of each code when its values are objects (an object's
    #: ``value``, a word's the word itself; canonical when ``number`` is
    #: set); empty for an enum of words alone, whose values are their codes.
    meanings: tuple[str, ...] = ()
    #: ``"quadratic"`` when an enum's values are quadratic irrationals.
    number: str | None = None

    # -- reading a family file ------------------------------------------------

    @classmethod
    def from_json(cls, data: Any) -> Parameter:
        """Validate one entry of ``parameters``; errors say which field."""
        if not isinstance(data, dict):
            raise ValueError("must be an object with name and type")
        name, kind = data.get("name"), data.get("type")
        if not isinstance(name, str) or not NAME.match(name):
            raise ValueError(f"name: {name!r} must match {NAME.pattern}")
        allowed = {"int": {"min", "max"}, "enum": {"values"}, "subset": {"pool"}}
        if kind not in allowed:
            raise ValueError(f"type: {kind!r} must be one of {sorted(allowed)}")
        optional = {"number"} if kind == "enum" else set()
        extra = set(data) - {"name", "type", *allowed[kind], *optional}
        missing = allowed[kind] - set(data)
        if extra or missing:
            field = sorted(extra or missing)[0]
            raise ValueError(f"{field}: {'unknown' if extra else 'missing'} field")
        if kind == "int":
            lo, hi = data["min"], data["max"]
            for field, v in (("min", lo), ("max", hi)):
                if not _is_int(v) or not 0 <= v <= MAX_INT:
                    raise ValueError(f"{field}: must be an integer in 0..{MAX_INT}")
            if lo > hi:
                raise ValueError("max: must be at least min")
            return cls(name, kind, min=lo, max=hi)
        if kind == "enum":
            return cls._enum(name, data["values"], data.get("number"))
        pool = data["pool"]
        if not isinstance(pool, list) or not 0 < len(pool) <= MAX_POOL:
            raise ValueError(f"pool: must be a list of 1 to {MAX_POOL} pairs")
        pairs = []
        for i, p in enumerate(pool):
            if not (
                isinstance(p, list)
                and len(p) == 2
                and all(_is_int(v) and 0 <= v <= MAX_INT for v in p)
                and p != [0, 0]
            ):
                raise ValueError(f"pool[{i}]: must be a pair [a, b] of integers >= 0")
            pairs.append((p[0], p[1]))
        if len(set(pairs)) != len(pairs):
            raise ValueError("pool: must not repeat a pair")
        return cls(name, kind, pool=tuple(pairs))

    @classmethod
    def _enum(cls, name: str, values: Any, number: Any) -> Parameter:
        """An enum of words, or of ``{"code", "value"}`` objects (see the
        module docstring)."""
        if not isinstance(values, list) or not values:
            raise ValueError("values: must be a non-empty list of words")
        if number is not None and number not in NUMBERS:
            raise ValueError(f"number: {number!r} must be one of {list(NUMBERS)}")
        codes: list[str] = []
        meanings: list[str] = []
        for i, v in enumerate(values):
            code, meaning = v, v
            if isinstance(v, dict):
                if set(v) != {"code", "value"}:
                    raise ValueError(f"values[{i}]: must be an object with code, value")
                code, meaning = v["code"], v["value"]
                if not isinstance(meaning, str) or not meaning.strip():
                    raise ValueError(f"values[{i}].value: must be a non-empty string")
            elif number is not None:
                raise ValueError(f"values[{i}]: must be an object with code, value")
            if not isinstance(code, str) or not WORD.match(code):
                raise ValueError(f"values[{i}]: {code!r} must match {WORD.pattern}")
            if number == "quadratic":
                try:
                    meaning = str(parse_quadratic(meaning))
                except QuadraticError as exc:
                    raise ValueError(f"values[{i}].value: {exc}") from None
                if meaning in meanings:
                    raise ValueError(
                        f"values[{i}].value: {meaning} is also the value of "
                        f"{codes[meanings.index(meaning)]!r}"
                    )
            codes.append(code)
            meanings.append(meaning)
        if len(set(codes)) != len(codes):
            raise ValueError("values: must not repeat")
        objects = any(isinstance(v, dict) for v in values)
        return cls(
            name,
            "enum",
            values=tuple(codes),
            meanings=tuple(meanings) if objects else (),
            number=number,
        )

    # -- values ---------------------------------------------------------------

    def all_values(self) -> Iterator[Any]:
        """Every value of the range, in offset order."""
        if self.type == "int":
            yield from range(self.min, self.max + 1)
        elif self.type == "enum":
            yield from self.values
        else:
            for mask in range(1, 1 << len(self.pool)):
                yield tuple(p for i, p in enumerate(self.pool) if mask >> i & 1)

    def offset(self, value: Any) -> int:
        """The value's range-independent offset (see the module docstring)."""
        if self.type == "int":
            return int(value) - self.min
        if self.type == "enum":
            return self.values.index(value)
        return sum(1 << self.pool.index(p) for p in value)

    def code(self, value: Any) -> int:
        """The integer the store keeps for the value (``labels.p1``…): the
        integer itself, an enum value's position, a subset's bit mask."""
        return int(value) if self.type == "int" else self.offset(value)

    def to_json(self, value: Any) -> Any:
        """The value as JSON (a subset is a list of [a, b] pairs)."""
        return [list(p) for p in value] if self.type == "subset" else value

    def meaning(self, value: Any) -> Any:
        """What the definition template gets for the value: an enum object
        value's ``value`` (canonical for a quadratic one), else the JSON."""
        if self.type == "enum" and self.meanings:
            return self.meanings[self.values.index(value)]
        return self.to_json(value)

    def text(self, value: Any) -> str:
        """The value in a name or description: ``{(1,0),(0,1)}`` for a subset,
        an enum object value's ``value``."""
        if self.type == "subset":
            return "{" + ",".join(f"({a},{b})" for a, b in value) + "}"
        return str(self.meaning(value)) if self.type == "enum" else str(value)

    def fields(self) -> tuple[str, ...]:
        """The text placeholders of the parameter besides ``{name}``:
        ``{name.code}`` and, for quadratic values, :data:`QUADRATIC_FIELDS`."""
        if self.number == "quadratic":
            return ("code", *QUADRATIC_FIELDS)
        return ("code",) if self.type == "enum" and self.meanings else ()

    def texts(self, value: Any) -> dict[str, str]:
        """Every text placeholder's replacement for the value, by
        placeholder (``"alpha"``, ``"alpha.cf"``, …)."""
        out = {self.name: self.text(value)}
        if "code" in self.fields():
            out[f"{self.name}.code"] = str(value)
        if self.number == "quadratic":
            number = parse_quadratic(self.meaning(value))
            out[f"{self.name}.cf"] = continued_fraction_text(number)
            out[f"{self.name}.beta"] = str(number.complement())
            out[f"{self.name}.approx"] = f"{float(number):.6f}"
        return out

    def label_parts(self, value: Any) -> list[str]:
        if self.type == "subset":
            return [f"{a}-{b}" for a, b in value]
        return [str(value)]

    def parse(self, parts: list[str]) -> Any:
        """The value written as label components; ``LabelError`` if invalid."""
        if self.type == "int":
            (text,) = parts
            if not DIGITS.match(text):
                raise LabelError(
                    f"{self.name}: {text!r} is not a number "
                    "(ASCII digits, no sign or leading zeros)"
                )
            value = int(text)
            if not self.min <= value <= self.max:
                raise LabelError(
                    f"{self.name}: {value} is out of range {self.min}..{self.max}"
                )
            return value
        if self.type == "enum":
            (text,) = parts
            if text not in self.values:
                raise LabelError(
                    f"{self.name}: {text!r} is not one of {', '.join(self.values)}"
                )
            return text
        pairs: list[Pair] = []
        for text in parts:
            match = PAIR.match(text)
            if match is None:
                raise LabelError(f"{self.name}: {text!r} is not a pair a-b")
            pair = (int(match.group(1)), int(match.group(2)))
            if pair not in self.pool:
                pool = ", ".join(f"{a}-{b}" for a, b in self.pool)
                raise LabelError(f"{self.name}: {text} is not in the pool ({pool})")
            if pair in pairs:
                raise LabelError(f"{self.name}: {text} appears twice")
            pairs.append(pair)
        return tuple(sorted(pairs, key=self.pool.index))

    def describe(self) -> str:
        if self.type == "int":
            return f"{self.name} in {self.min}..{self.max}"
        if self.type == "enum":
            return f"{self.name} in {{{', '.join(self.values)}}}"
        pool = ", ".join(f"({a},{b})" for a, b in self.pool)
        return f"{self.name}: a subset of {{{pool}}}"

    def size(self) -> int:
        """How many values the range has."""
        if self.type == "int":
            return self.max - self.min + 1
        if self.type == "enum":
            return len(self.values)
        return (1 << len(self.pool)) - 1


def continued_fraction_text(number: Quadratic) -> str:
    """α's continued fraction with its period shown twice:
    ``[1; 1, 2, 1, 2, …] (period 1, 2)`` for √3.

    >>> continued_fraction_text(parse_quadratic("(3+sqrt(5))/4"))
    '[1; 3, 4, 4, …] (period 4)'
    """
    pre, period = number.periodic_continued_fraction()
    head, *tail = [*pre, *period, *period]
    terms = ", ".join(map(str, tail))
    return f"[{head}; {terms}, …] (period {', '.join(map(str, period))})"


def shell_index(offsets: list[int]) -> int:
    """Position of ``offsets`` when all tuples of non-negative integers of this
    length are ordered by their largest entry, then lexicographically.

    The tuples with largest entry below m are the m**k ones in [0, m)^k, so
    the position never depends on how far any range reaches.

    >>> [shell_index([a, b]) for a, b in [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2)]]
    [0, 1, 2, 3, 4]
    """
    k = len(offsets)
    if k == 0:
        return 0
    m = max(offsets)
    index = m**k
    reached = False  # does the prefix already hold an entry equal to m?
    for i, o in enumerate(offsets):
        rest = k - i - 1
        # Tuples that agree so far and hold v < o here (v < o <= m): their
        # suffixes range over [0, m]^rest, needing an m unless already reached.
        per_value = (m + 1) ** rest if reached else (m + 1) ** rest - m**rest
        index += o * per_value
        reached = reached or o == m
    return index


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
