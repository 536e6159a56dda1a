"""Queries across entries by their facts and their families' parameters.

Every function takes the session first and never creates, commits or closes
it. Each query is driven by an index: ``labels (family, pK, entry_id)`` for a
family and its parameters, ``facts (column, entry_id)`` for an invariant, so
no filter reads every entry.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select, tuple_
from sqlalchemy.orm import InstrumentedAttribute, Session

from catalog.errors import BadInput
from catalog.families.filters import FIELDS, Condition
from catalog.store.ids import format_id
from catalog.store.labels import primary_labels
from catalog.store.models import Entry, EntryKeyword, Facts, Label

#: The columns behind each field of :data:`catalog.families.filters.FIELDS`.
FACT_COLUMNS: dict[str, tuple[InstrumentedAttribute[Any], ...]] = {
    "offset": (Facts.offset_dx, Facts.offset_dy),
    "offset_dx": (Facts.offset_dx,),
    "offset_dy": (Facts.offset_dy,),
    "defects": (Facts.defects,),
    "saturation_column": (Facts.saturation_column,),
    "deviations": (Facts.deviation_min, Facts.deviation_max),
    "deviations_min": (Facts.deviation_min,),
    "deviations_max": (Facts.deviation_max,),
    "adjoined_moves": (Facts.adjoined_same,),
    "one_p_per_column": (Facts.one_p_per_column,),
    "symmetric": (Facts.symmetric,),
    "xref_class": (Facts.xref_class,),
    "cone_slope": (Facts.cone_slope,),
    "cone_form": (Facts.cone_s, Facts.cone_t),
    "cone_s": (Facts.cone_s,),
    "cone_t": (Facts.cone_t,),
}
PARAMETER_COLUMNS = (Label.p1, Label.p2, Label.p3)
assert set(FACT_COLUMNS) == set(FIELDS)


def _condition(cond: Condition) -> ColumnElement[bool]:
    if cond.parameter is not None:
        columns: tuple[Any, ...] = (PARAMETER_COLUMNS[cond.parameter],)
        values: tuple[Any, ...] = (cond.value,)
    else:
        columns = FACT_COLUMNS[cond.field]
        values = cond.value if len(columns) == 2 else (cond.value,)
    parts = [_compare(c, cond.op, v) for c, v in zip(columns, values, strict=True)]
    if cond.op == "!=" and len(parts) == 2:
        return and_(*(c.isnot(None) for c in columns), or_(*parts))
    return and_(*parts)


_OPERATORS = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _compare(column: Any, op: str, value: Any) -> ColumnElement[bool]:
    return _OPERATORS[op](column, value)


def _sort_column(sort: str, family: str | None, names: Sequence[str]) -> Any:
    name = sort.lstrip("-")
    if name in FACT_COLUMNS:
        return FACT_COLUMNS[name][0]
    if family is None or name not in names:
        raise BadInput(f"--sort {name}: unknown field")
    return PARAMETER_COLUMNS[list(names).index(name)]


def filter_entries(
    session: Session,
    *,
    family: str | None = None,
    parameters: Sequence[str] = (),
    conditions: Sequence[Condition] = (),
    sort: str | None = None,
    keyword: str | None = None,
    words: Iterable[str] = (),
    after: int = 0,
    limit: int = 100,
) -> list[dict[str, Any]]:
    """Entries matching every condition, in ID order or by ``sort`` (``FIELD``
    or ``-FIELD``, then the ID; entries without a value for FIELD are left
    out), after the entry ``after`` in that order. ``parameters`` are the
    family's parameter names, in order.

    Each row: ``{"id", "name", "keywords", "label", "values"}`` with the value
    of every field named in a condition or the sort.
    """
    fact_fields = [c.field for c in conditions if c.parameter is None]
    sort_name = sort.lstrip("-") if sort else None
    descending = bool(sort and sort.startswith("-"))
    if sort_name == "id":
        sort_name = None
    need_facts = bool(fact_fields) or sort_name in FACT_COLUMNS
    columns: list[Any] = [Entry.id, Entry.name, Entry.keywords]
    query = select(*columns)
    order_id: Any = Entry.id
    if family is not None:
        query = query.join(
            Label, and_(Label.entry_id == Entry.id, Label.family == family)
        ).add_columns(Label.label, Label.parameters)
        order_id = Label.entry_id
    if need_facts:
        query = query.join(Facts, Facts.entry_id == Entry.id)
        shown = sorted({*fact_fields, *([sort_name] if sort_name in FIELDS else [])})
        for name in shown:
            query = query.add_columns(*FACT_COLUMNS[name])
        if family is None:
            order_id = Facts.entry_id
    else:
        shown = []
    for cond in conditions:
        query = query.where(_condition(cond))
    if keyword:
        query = query.where(
            Entry.id.in_(
                select(EntryKeyword.entry_id).where(
                    EntryKeyword.keyword == keyword.lower()
                )
            )
        )
    for word in words:
        query = query.where(
            func.lower(Entry.name).contains(word.lower(), autoescape=True)
        )
    if sort_name is None:
        order = order_id.desc() if descending else order_id
        query = query.order_by(order)
        if after:
            query = query.where(order_id < after if descending else order_id > after)
    else:
        column = _sort_column(sort_name, family, parameters)
        query = query.where(column.isnot(None))
        if after:
            key = _sort_key(session, column, family, after)
            pair = tuple_(column, order_id)
            query = query.where(
                pair < tuple_(key, after) if descending else pair > tuple_(key, after)
            )
        if descending:
            query = query.order_by(column.desc(), order_id.desc())
        else:
            query = query.order_by(column, order_id)
    rows = session.execute(query.limit(limit)).all()
    labels = {} if family is not None else primary_labels(session, [r[0] for r in rows])
    out = []
    for row in rows:
        record: dict[str, Any] = {
            "id": format_id(row[0]),
            "name": row[1],
            "keywords": row[2],
            "label": row[3] if family is not None else labels.get(row[0]),
        }
        values: dict[str, Any] = {}
        rest = list(row[5:] if family is not None else row[3:])
        for name in shown:
            width = len(FACT_COLUMNS[name])
            taken, rest = rest[:width], rest[width:]
            values[name] = fact_value(name, taken)
        if family is not None:
            for cond in conditions:
                if cond.parameter is not None:
                    values[cond.field] = row[4][cond.field]
            if sort_name is not None and sort_name not in FIELDS:
                values[sort_name] = row[4][sort_name]
        record["values"] = values
        out.append(record)
    return out


def _sort_key(session: Session, column: Any, family: str | None, after: int) -> Any:
    """The sort value of the entry ``after``: where the next page starts."""
    table = column.class_
    query = select(column).where(table.entry_id == after)
    if table is Label:
        query = query.where(Label.family == family)
    key = session.scalar(query)
    if key is None:
        raise BadInput(f"after: {format_id(after)} is not in this listing")
    return key


def fact_value(name: str, values: Sequence[Any]) -> Any:
    """A field's value as JSON: a pair as [a, b], an ID as W…, else as is."""
    if any(v is None for v in values):
        return None
    kind = FIELDS[name].kind
    if kind == "pair":
        return [int(values[0]), int(values[1])]
    if kind == "id":
        return format_id(values[0])
    if kind == "bool":
        return bool(values[0])
    return int(values[0])


def family_rows(
    session: Session, family: str, fixed: dict[int, int], field: str | None
) -> list[tuple[list[int | None], int, Any]]:
    """``(codes, entry number, value of field)`` for each stored member of
    ``family`` whose parameter codes at the positions ``fixed`` match; the
    value of ``field`` is the W-number when ``field`` is None."""
    columns = FACT_COLUMNS[field] if field is not None else ()
    query = (
        select(Label.p1, Label.p2, Label.p3, Label.entry_id, *columns)
        .where(Label.family == family)
        .order_by(Label.entry_id)
    )
    if columns:
        query = query.outerjoin(Facts, Facts.entry_id == Label.entry_id)
    for position, code in fixed.items():
        query = query.where(PARAMETER_COLUMNS[position] == code)
    out = []
    for row in session.execute(query):
        codes = [row[0], row[1], row[2]]
        value = fact_value(field, row[4:]) if field is not None else format_id(row[3])
        out.append((codes, row[3], value))
    return out
