"""What is derived from the P-positions or the definition and stored beside
them: sequences, bit-strings, cross-references, the search index and the
invariants.

Every function takes the session first and never creates, commits or closes
it. The reads run Core statements on :mod:`catalog.store.tables` and take a
bare Connection as well; only the writes import the ORM's models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import (
    Integer,
    Row,
    bindparam,
    case,
    delete,
    func,
    insert,
    select,
    update,
)

from catalog.store import chunks, tables
from catalog.store.db import Reader
from catalog.store.tables import utcnow

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def replace_sequences(
    session: Session, entry_id: int, sequences: dict[str, tuple[int, np.ndarray, str]]
) -> None:
    """Store derived sequences: ``name -> (offset, terms, description)``."""
    from catalog.store.models import Sequence as SequenceRow  # the ORM: writes alone

    session.execute(delete(SequenceRow).where(SequenceRow.entry_id == entry_id))
    for name, (offset, terms, description) in sequences.items():
        encoding, data = chunks.encode_ints(terms)
        session.add(
            SequenceRow(
                entry_id=entry_id,
                name=name,
                offset=offset,
                length=len(terms),
                encoding=encoding,
                data=data,
                checksum=chunks.checksum(terms),
                description=description,
            )
        )


#: The stored sequences of an entry, whole or their heads (``head``: bytes
#: of each, which hold the first terms; zlib's output is never much longer
#: than its input). Built once: building a statement costs more than
#: running it.
_SEQ = tables.sequences.c
_SEQUENCE_COLUMNS = (
    _SEQ.name,
    _SEQ.offset,
    _SEQ.length,
    _SEQ.encoding,
    _SEQ.description,
)
_SEQUENCES = (
    select(*_SEQUENCE_COLUMNS, _SEQ.data)
    .where(_SEQ.entry_id == bindparam("entry"))
    .order_by(_SEQ.name)
)
_SEQUENCE_HEADS = (
    select(
        *_SEQUENCE_COLUMNS,
        func.substr(_SEQ.data, 1, bindparam("head", type_=Integer)).label("data"),
    )
    .where(_SEQ.entry_id == bindparam("entry"))
    .order_by(_SEQ.name)
)
_SEQUENCE_DATA = select(_SEQ.data).where(
    _SEQ.entry_id == bindparam("entry"), _SEQ.name == bindparam("name")
)


def read_sequences(
    session: Reader, entry_id: int, head: int | None = None
) -> dict[str, dict[str, Any]]:
    """The entry's stored sequences by name; with ``head``, only their first
    ``head`` terms are read and decoded (a sequence keeps up to 100,000)."""
    if head is None:
        rows = session.execute(_SEQUENCES, {"entry": entry_id})
    else:
        params = {"entry": entry_id, "head": 8 * head + 1024}
        rows = session.execute(_SEQUENCE_HEADS, params)
    out = {}
    for row in rows:
        terms = chunks.decode_ints(row.encoding, row.data, head)
        if head is not None and len(terms) < min(head, row.length):
            params = {"entry": entry_id, "name": row.name}
            data = session.execute(_SEQUENCE_DATA, params).scalar_one()
            terms = chunks.decode_ints(row.encoding, data, head)
        out[row.name] = {
            "offset": row.offset,
            "length": row.length,
            "description": row.description,
            "terms": terms,
        }
    return out


def replace_bitstring(
    session: Session, entry_id: int, kind: str, start: int, bits: str
) -> None:
    from catalog.store.models import Bitstring

    session.execute(
        delete(Bitstring).where(Bitstring.entry_id == entry_id, Bitstring.kind == kind)
    )
    session.add(
        Bitstring(
            entry_id=entry_id, kind=kind, start=start, length=len(bits), bits=bits
        )
    )


#: The statements of the read paths, built once: building a statement and
#: its cache key costs more than running it on a small table.
_BITS = tables.bitstrings.c
_BITSTRINGS = (
    select(_BITS.kind, _BITS.start, _BITS.length, _BITS.bits)
    .where(_BITS.entry_id == bindparam("entry"))
    .order_by(_BITS.kind)
)
_XREFS = select(tables.xrefs.c.other_id).where(
    tables.xrefs.c.entry_id == bindparam("entry")
)
_INVARIANTS = select(tables.invariants.c.version, tables.invariants.c.data).where(
    tables.invariants.c.entry_id == bindparam("entry")
)


def read_bitstrings(session: Reader, entry_id: int) -> list[Row[Any]]:
    """The entry's bit-strings: rows of (kind, start, length, bits)."""
    return list(session.execute(_BITSTRINGS, {"entry": entry_id}))


def xref_ids(session: Reader, entry_id: int) -> list[int]:
    return sorted(session.scalars(_XREFS, {"entry": entry_id}))


def link_equal_columns(session: Session, entry_id: int, column: np.ndarray) -> None:
    """Cross-reference the entries whose column sequence y(x) agrees with
    ``column`` on their common stored length (at least 100 columns): their
    P-positions agree in every column up to that bound."""
    from catalog.store.models import CrossReference

    before = set(xref_ids(session, entry_id))
    session.execute(
        delete(CrossReference).where(
            (CrossReference.entry_id == entry_id)
            | (CrossReference.other_id == entry_id),
            CrossReference.relation == RELATION,
        )
    )
    linked = _link(session, entry_id, column) if len(column) >= 100 else set()
    # Those that lost their link to this entry (its sequence changed) look
    # at their remaining cross-references again; that is rare.
    update_xref_classes(session, before - linked)
    _join_class(session, entry_id, linked)


def _join_class(session: Session, entry_id: int, linked: set[int]) -> None:
    """Set the entry's ``xref_class`` (the least number among itself and the
    entries it now cross-references, ``linked``) and lower theirs to its
    number where it is less: each of them gained one cross-reference, this
    entry. Three statements, however many members the class has (reading
    each member's cross-references again made seeding a family with
    hundreds of equal games quadratic)."""
    from catalog.store.models import Facts

    _set_facts(session, entry_id, xref_class=min(linked | {entry_id}))
    if not linked:
        return
    current = func.coalesce(Facts.xref_class, Facts.entry_id)
    session.execute(
        update(Facts)
        .where(Facts.entry_id.in_(sorted(linked)))
        .values(xref_class=case((current > entry_id, entry_id), else_=current))
    )


def _link(session: Session, entry_id: int, column: np.ndarray) -> set[int]:
    # Candidates from the search index: entries whose y starts the same way.
    from catalog.store.models import CrossReference
    from catalog.store.models import Sequence as SequenceRow
    from catalog.store.search import heads  # as in reindex: writes only

    same_start = [int(e) for e in heads(session, column) if e != entry_id]
    others = session.execute(
        select(SequenceRow.entry_id, SequenceRow.encoding, SequenceRow.data).where(
            SequenceRow.name == "y", SequenceRow.entry_id.in_(same_start)
        )
    ).all()
    linked = set()
    rows = []
    for other, encoding, data in others:
        theirs = chunks.decode_ints(encoding, data)
        bound = min(len(theirs), len(column))
        if bound >= 100 and np.array_equal(theirs[:bound], column[:bound]):
            linked.add(other)
            rows += [
                {"entry_id": a, "other_id": b, "relation": RELATION, "bound": bound}
                for a, b in ((entry_id, other), (other, entry_id))
            ]
    if rows:
        session.execute(insert(CrossReference), rows)
    return linked


RELATION = "same-p-positions"


def reindex(session: Session) -> int:
    """Rebuild the search index from every stored sequence, and the window
    prints from the stored P-positions; return the entries indexed."""
    from catalog.store import prints, search
    from catalog.store.models import Sequence as SequenceRow

    numbers = list(
        session.scalars(
            select(SequenceRow.entry_id).distinct().order_by(SequenceRow.entry_id)
        )
    )
    done = search.rebuild(
        session,
        (
            (
                number,
                {k: v["terms"] for k, v in read_sequences(session, number).items()},
            )
            for number in numbers
        ),
    )
    prints.rebuild(session)
    return done


def read_invariants(session: Reader, entry_id: int, version: int) -> dict | None:
    """The stored invariants of an entry, or None if missing or older."""
    row = session.execute(_INVARIANTS, {"entry": entry_id}).first()
    return row.data if row is not None and row.version >= version else None


def store_invariants(
    session: Session, entry_id: int, version: int, data: dict[str, Any]
) -> None:
    """Keep ``data`` (from :func:`catalog.compute.invariants.compute`), and the
    values researchers filter by in the indexed columns of :class:`Facts`."""
    from catalog.store.models import Invariants

    session.merge(
        Invariants(entry_id=entry_id, version=version, data=data, computed_at=utcnow())
    )
    offset = (data.get("offset") or {}).get("value")
    deviations = (data.get("deviations") or {}).get("value")
    adjoined = (data.get("adjoined_moves") or {}).get("value")
    _set_facts(
        session,
        entry_id,
        offset_dx=offset["dx"] if offset else None,
        offset_dy=offset["dy"] if offset else None,
        offset_method=data["offset"]["method"] if offset else None,
        defects=data["defects"]["value"] if offset else None,
        saturation_column=data["saturation"]["value"]["column"] if offset else None,
        deviation_min=deviations["min"] if deviations else None,
        deviation_max=deviations["max"] if deviations else None,
        adjoined_same=adjoined["same_p_positions_as_wythoff"] if adjoined else None,
    )


def store_fill_facts(
    session: Session,
    entry_id: int,
    one_p_per_column: bool | None,
    symmetric: bool | None,
) -> None:
    """What a fill observed on the columns computed so far."""
    _set_facts(
        session, entry_id, one_p_per_column=one_p_per_column, symmetric=symmetric
    )


def _set_facts(session: Session, entry_id: int, **values: Any) -> None:
    """Set some columns of the entry's facts row, creating it if missing.

    A fill and a first ``show`` of the same entry may write at once: the row
    is created by an insert that does nothing on conflict, so neither fails.
    """
    from catalog.store.models import Facts

    dialect = session.get_bind().dialect.name
    # Imported here: loading the PostgreSQL dialect costs 30 ms of every
    # command's start, and only a write needs it.
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql as kind
    else:
        from sqlalchemy.dialects import sqlite as kind  # type: ignore[no-redef]
    session.execute(
        kind.insert(Facts)
        .values(entry_id=entry_id)
        .on_conflict_do_nothing(index_elements=["entry_id"])
    )
    session.execute(update(Facts).where(Facts.entry_id == entry_id).values(**values))


def update_xref_classes(session: Session, entry_ids: set[int]) -> None:
    """Set each entry's ``xref_class``: the least number among itself and the
    entries it cross-references."""
    for number in sorted(entry_ids):
        least = min([number, *xref_ids(session, number)])
        _set_facts(session, number, xref_class=least)
