"""The fields entries are filtered, sorted and tabulated by, and the parser of
``--where 'FIELD OP VALUE'``.

Fields are the invariants kept in indexed columns (:class:`~catalog.store.
models.Facts`) and, within a family, its parameters. Pure: the store turns a
:class:`Condition` into SQL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalog.compute import dictionary, offsets
from catalog.compute.closed import WYTHOFF_RAYS
from catalog.compute.modes import column_mode
from catalog.errors import BadInput, Unprocessable
from catalog.families.spec import Family
from catalog.games.definition import Definition
from catalog.inputs import WHITESPACE

OPS = ("=", "!=", "<", "<=", ">", ">=")
#: Most ``where`` conditions in one query, and the longest one.
MAX_CONDITIONS = 16
MAX_CONDITION_LENGTH = 100
#: FIELD OP VALUE: a request that does not match is a 400; one that does but
#: names no field, or a value the field cannot take, is a 422 (Unprocessable).
#: Matched whole; the value is stripped of white space after. The OpenAPI
#: document states the same pattern, so it is written for both dialects
#: (white space spelled out, no ``\Z``).
WHERE_PATTERN = (
    f"[{WHITESPACE}]*([A-Za-z_][A-Za-z0-9_]*)[{WHITESPACE}]*"
    r"(==|!=|<=|>=|=|<|>)([^\x00]*)"
)
_WHERE = re.compile(WHERE_PATTERN)
_INT = re.compile(r"[-+]?[0-9]{1,18}\Z", re.ASCII)
_ID = re.compile(r"[Ww]([0-9]{6})\Z", re.ASCII)


def _wythoff_plus_moves(game: Definition) -> bool:
    return (
        game.rays == WYTHOFF_RAYS
        and bool(game.moves)
        and not game.beyond("rays", "moves")
    )


def _cone_pairs(game: Definition) -> bool:
    """Cone games with Nim's rays: one P-position a row and a column, read as
    pairs (A_n, B_n) (:func:`catalog.compute.invariants._cone_pairs`)."""
    return bool(game.cones) and {(0, 1), (1, 0)} <= set(game.rays) and not game.block


@dataclass(frozen=True)
class Field:
    """An invariant in indexed columns: its kind, and the games it applies to."""

    name: str
    kind: str  # "int", "pair", "bool" or "id"
    applies: Callable[[Definition], bool]
    help: str


_ALTERED = offsets.applies
FIELDS: dict[str, Field] = {
    f.name: f
    for f in [
        Field("offset", "pair", _ALTERED, "Hu-Sleator-Tsin offset dx,dy"),
        Field("offset_dx", "int", _ALTERED, "the offset's dx"),
        Field("offset_dy", "int", _ALTERED, "the offset's dy"),
        Field("defects", "int", _ALTERED, "defects (Hu-Sleator-Tsin section 4)"),
        Field("saturation_column", "int", _ALTERED, "saturation column (Lemma 2)"),
        Field(
            "deviations",
            "pair",
            dictionary.is_maharaja_type,
            "least and largest b_n - a_n - n, min,max",
        ),
        Field("deviations_min", "int", dictionary.is_maharaja_type, "least one"),
        Field("deviations_max", "int", dictionary.is_maharaja_type, "largest one"),
        Field(
            "adjoined_moves",
            "bool",
            _wythoff_plus_moves,
            "do the adjoined moves keep Wythoff's P-positions",
        ),
        Field("one_p_per_column", "bool", column_mode, "one P-position per column"),
        Field("symmetric", "bool", column_mode, "P-positions symmetric in x, y"),
        Field(
            "cone_slope",
            "int",
            _cone_pairs,
            "d with B_n - A_n = d n (a-Wythoff: a), cone games",
        ),
        Field("cone_form", "pair", _cone_pairs, "s,t with B_n = s A_n + t n"),
        Field("cone_s", "int", _cone_pairs, "the form's s"),
        Field("cone_t", "int", _cone_pairs, "the form's t"),
        Field(
            "xref_class",
            "id",
            lambda game: True,
            "least ID among the entry and those with the same P-positions",
        ),
    ]
}
#: Earlier spellings of fields, still accepted (a field has the name of its
#: invariant in the entry document: ``deviations``, ``adjoined_moves``).
ALIASES = {
    "deviation": "deviations",
    "deviation_min": "deviations_min",
    "deviation_max": "deviations_max",
    "adjoined": "adjoined_moves",
}


def canonical(name: str) -> str:
    """The field's name, for an earlier spelling of it too."""
    return ALIASES.get(name, name)


#: What a table may show besides the fields: the entry's W-number.
TABLE_EXTRAS = ("id",)


@dataclass(frozen=True)
class Condition:
    """``field op value``; ``parameter`` is the family parameter's position
    (0, 1, 2) when the field is one, and ``value`` is then its integer code."""

    field: str
    op: str
    value: Any
    parameter: int | None = None


def field_names(family: Family | None = None) -> list[str]:
    names = list(FIELDS)
    if family is not None:
        names += [p.name for p in family.parameters if p.type != "subset"]
    return names


def check_field(name: str, family: Family | None, members: list[Any] | None) -> None:
    """Refuse a field unknown, or one no member of ``family`` has."""
    if family is not None and any(p.name == name for p in family.parameters):
        return
    if name not in FIELDS:
        known = ", ".join(field_names(family))
        raise Unprocessable(f"unknown field {name!r} (fields: {known})")
    if family is not None and members is not None:
        if not any(FIELDS[name].applies(m.game) for m in members):
            raise Unprocessable(
                f"the family {family.name} has no {name}: it applies to none of "
                "its members"
            )


def parse_where(
    text: str, family: Family | None = None, members: list[Any] | None = None
) -> Condition:
    """``'offset=12,7'``, ``'defects <= 2'``, ``'k=3'`` (with a family)."""
    match = _WHERE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise BadInput(
            f"--where {text!r}: expected FIELD OP VALUE with OP one of "
            f"{' '.join(OPS)}, e.g. 'defects=0' or 'offset=12,7'"
        )
    name, op, raw = match.groups()
    raw = raw.strip()
    name = canonical(name)
    op = "=" if op == "==" else op
    check_field(name, family, members)
    if family is not None and name not in FIELDS:
        return _parameter_condition(family, name, op, raw)
    kind = FIELDS[name].kind
    if kind != "int" and op not in ("=", "!="):
        raise Unprocessable(f"--where {text!r}: {name} takes only = and !=")
    return Condition(name, op, parse_value(name, kind, raw))


def parse_value(name: str, kind: str, raw: str) -> Any:
    if kind == "int":
        return _int(name, raw)
    if kind == "pair":
        parts = raw.strip("()[] ").split(",")
        if len(parts) != 2:
            raise Unprocessable(f"{name}: {raw!r} is not a pair such as 12,7")
        return (_int(name, parts[0].strip()), _int(name, parts[1].strip()))
    if kind == "bool":
        word = raw.lower()
        if word in ("true", "yes", "1"):
            return True
        if word in ("false", "no", "0"):
            return False
        raise Unprocessable(f"{name}: {raw!r} is not true or false")
    match = _ID.match(raw)
    if match is None or int(match.group(1)) == 0:
        raise Unprocessable(f"{name}: {raw!r} is not an entry ID such as W000001")
    return int(match.group(1))


def _int(name: str, raw: str) -> int:
    if not _INT.match(raw):
        raise Unprocessable(f"{name}: {raw!r} is not an integer")
    return int(raw)


def _parameter_condition(family: Family, name: str, op: str, raw: str) -> Condition:
    position = [p.name for p in family.parameters].index(name)
    param = family.parameters[position]
    if param.type == "subset":
        raise Unprocessable(f"{name}: a subset parameter is filtered by its label")
    if param.type == "enum":
        if op not in ("=", "!="):
            raise Unprocessable(f"{name} takes only = and !=")
        if raw not in param.values:
            raise Unprocessable(
                f"{name}: {raw!r} is not one of {', '.join(param.values)}"
            )
        return Condition(name, op, param.values.index(raw), position)
    return Condition(name, op, _int(name, raw), position)


def parse_sort(text: str, family: Family | None, members: list[Any] | None) -> str:
    """``FIELD`` or ``-FIELD`` (descending) of a scalar field or parameter."""
    descending = text.startswith("-")
    name = canonical(text[1:] if descending else text)
    text = ("-" if descending else "") + name
    if name == "id":
        return text
    check_field(name, family, members)
    if name in FIELDS and FIELDS[name].kind == "pair":
        parts = ("dx", "dy") if name == "offset" else ("min", "max")
        raise Unprocessable(
            f"--sort {name}: a pair; sort by {name}_{parts[0]} or {name}_{parts[1]}"
        )
    if family is not None and name not in FIELDS:
        param = family.parameter(name)
        if param.type == "subset":
            raise Unprocessable(f"--sort {name}: a subset parameter cannot be sorted")
    return text
