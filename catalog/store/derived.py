"""What is derived from the P-positions or the definition and stored beside
them: sequences, bit-strings, cross-references, the search index and the
invariants.

Every function takes the session first and never creates, commits or closes
it. The reads run Core statements on :mod:`catalog.store.tables` and take a
bare Connection as well; only the writes import the ORM's models.
"""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy import (
    Integer,
    Row,
    and_,
    bindparam,
    delete,
    func,
    or_,
    select,
    union_all,
    update,
)

from catalog.store import chunks, tables
from catalog.store.db import Reader, dialect_insert, insert_of
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
_INVARIANTS = select(tables.invariants.c.version, tables.invariants.c.data).where(
    tables.invariants.c.entry_id == bindparam("entry")
)


def read_bitstrings(session: Reader, entry_id: int) -> list[Row[Any]]:
    """The entry's bit-strings: rows of (kind, start, length, bits)."""
    return list(session.execute(_BITSTRINGS, {"entry": entry_id}))


# Cross-references. The entries whose stored y(x) is the same sequence form
# a group, keyed by (y_head, y_length, y_digest) in their facts rows; groups
# of different lengths are linked in ``xref_links`` when the shorter y(x)
# begins the longer one. An entry refers to the other members of its group
# and to the members of the groups linked to it, all derived on read: a
# class of k equal games costs k facts rows, not k² pairs, and a newcomer
# compares its y(x) with one member of each group that starts as it does,
# not with every member.

#: Terms of y(x) under ``y_head``; shorter sequences are in no group.
HEAD_TERMS = 100
_F = tables.facts.c
_L = tables.xref_links.c
_GROUP = select(_F.y_head, _F.y_length, _F.y_digest).where(
    _F.entry_id == bindparam("entry")
)
_LINKED = union_all(
    select(_L.long_length, _L.long_digest).where(
        _L.head == bindparam("head"),
        _L.short_length == bindparam("length"),
        _L.short_digest == bindparam("digest"),
    ),
    select(_L.short_length, _L.short_digest).where(
        _L.head == bindparam("head"),
        _L.long_length == bindparam("length"),
        _L.long_digest == bindparam("digest"),
    ),
)

#: A group: (head, length, digest).
Group = tuple[int, int, int]


def _hash(data: bytes) -> int:
    digest = hashlib.blake2b(data, digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def column_group(column: np.ndarray) -> Group | None:
    """The group of a y(x) sequence: hashes of its first HEAD_TERMS terms
    and of the whole, and its length (None if it is shorter)."""
    if len(column) < HEAD_TERMS:
        return None
    terms = np.asarray(column, dtype="<i8")
    return _hash(terms[:HEAD_TERMS].tobytes()), len(terms), _hash(terms.tobytes())


def _group_of(session: Reader, entry_id: int) -> Group | None:
    row = session.execute(_GROUP, {"entry": entry_id}).first()
    return None if row is None or row.y_head is None else tuple(row)  # type: ignore[return-value]


def _linked(session: Reader, group: Group) -> list[Group]:
    """The groups linked to ``group`` (longer or shorter)."""
    head, length, digest = group
    rows = session.execute(_LINKED, {"head": head, "length": length, "digest": digest})
    return [(head, int(a), int(b)) for a, b in rows]


def _in_groups(groups: list[Group]) -> Any:
    return or_(
        *(
            and_(_F.y_head == h, _F.y_length == n, _F.y_digest == d)
            for h, n, d in groups
        )
    )


def xref_ids(session: Reader, entry_id: int) -> list[int]:
    """The entries whose P-positions agree with this one's in every column
    both have stored (at least HEAD_TERMS columns): the rest of its group
    and the members of the groups linked to it."""
    group = _group_of(session, entry_id)
    if group is None:
        return []
    groups = [group, *_linked(session, group)]
    query = (
        select(_F.entry_id)
        .where(_in_groups(groups), _F.entry_id != entry_id)
        .order_by(_F.entry_id)
    )
    return list(session.scalars(query))


def _least(session: Reader, groups: list[Group]) -> int | None:
    """The least entry number among the members of ``groups``."""
    return session.scalar(select(func.min(_F.entry_id)).where(_in_groups(groups)))


def link_equal_columns(session: Session, entry_id: int, column: np.ndarray) -> None:
    """Put the entry in the group of its y(x) ``column`` (linking a new
    group to the groups of other lengths it agrees with) and keep the
    ``xref_class`` of everyone concerned: the least number among an entry
    and the entries it cross-references. Joining a group costs the same
    statements however many members it has."""
    old = _group_of(session, entry_id)
    group = column_group(column)
    if old is not None and old == group:
        return  # the same y(x) as before (filled again to the same bound)
    head, length, digest = group if group is not None else (None, None, None)
    _set_facts(session, entry_id, y_head=head, y_length=length, y_digest=digest)
    if old is not None:
        _left(session, old, entry_id)
    if group is None:
        _set_facts(session, entry_id, xref_class=entry_id)
        return
    _join(session, entry_id, group, column)
    groups = [group, *_linked(session, group)]
    least = _least(session, groups)
    _set_facts(session, entry_id, xref_class=least)
    # Each of the others gained one cross-reference: this entry.
    for h, n, d in groups:
        session.execute(
            update(tables.facts)
            .where(
                _F.y_head == h,
                _F.y_length == n,
                _F.y_digest == d,
                func.coalesce(_F.xref_class, _F.entry_id) > entry_id,
            )
            .values(xref_class=entry_id)
        )


def _join(session: Session, entry_id: int, group: Group, column: np.ndarray) -> None:
    """Check the entry's y(x) against a member of its group, or, for a new
    group, link it to the groups of other lengths with the same head whose
    y(x) agrees with it on their common length (one decoded y(x) a group)."""
    head, length, digest = group
    twin = session.scalar(
        select(func.min(_F.entry_id)).where(
            _in_groups([group]), _F.entry_id != entry_id
        )
    )
    if twin is not None:
        if not np.array_equal(_stored_column(session, twin), column):
            raise RuntimeError(f"entries {entry_id}, {twin}: other y(x), one hash")
        return  # the group exists, and its links
    others = session.execute(
        select(_F.y_length, _F.y_digest, func.min(_F.entry_id))
        .where(_F.y_head == head, _F.y_length != length)
        .group_by(_F.y_length, _F.y_digest)
    ).all()
    for other_length, other_digest, member in others:
        theirs = _stored_column(session, member)
        bound = min(len(theirs), length)
        if np.array_equal(theirs[:bound], column[:bound]):
            short, long = sorted([(length, digest), (other_length, other_digest)])
            _insert_link(session, head, short, long)


def _stored_column(session: Session, entry_id: int) -> np.ndarray:
    from catalog.store.models import Sequence as SequenceRow

    encoding, data = session.execute(
        select(SequenceRow.encoding, SequenceRow.data).where(
            SequenceRow.entry_id == entry_id, SequenceRow.name == "y"
        )
    ).one()
    return chunks.decode_ints(encoding, data)


def _insert_link(
    session: Session, head: int, short: tuple[int, int], long: tuple[int, int]
) -> None:
    """Link two groups; nothing if another writer just did."""
    values = {
        "head": head,
        "short_length": short[0],
        "short_digest": short[1],
        "long_length": long[0],
        "long_digest": long[1],
    }
    session.execute(
        dialect_insert(session)(tables.xref_links)
        .values(**values)
        .on_conflict_do_nothing()
    )


def _left(session: Session, group: Group, entry_id: int) -> None:
    """The entry left ``group``: drop the group's links if it is now empty,
    and set the classes of the groups it was cross-referenced from again."""
    neighbours = [group, *_linked(session, group)]
    head, length, digest = group
    if _least(session, [group]) is None:
        session.execute(
            delete(tables.xref_links).where(
                _L.head == head,
                or_(
                    and_(_L.short_length == length, _L.short_digest == digest),
                    and_(_L.long_length == length, _L.long_digest == digest),
                ),
            )
        )
        neighbours.remove(group)
    for h, n, d in neighbours:
        least = _least(session, [(h, n, d), *_linked(session, (h, n, d))])
        session.execute(
            update(tables.facts)
            .where(_F.y_head == h, _F.y_length == n, _F.y_digest == d)
            .values(xref_class=least)
        )


def forget_column(session: Session, entry_id: int) -> None:
    """Take the entry out of its group (before its results are cleared)."""
    old = _group_of(session, entry_id)
    if old is not None:
        _set_facts(session, entry_id, y_head=None, y_length=None, y_digest=None)
        _left(session, old, entry_id)


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
    session.execute(
        _invariants_upsert(session.get_bind().dialect.name),
        {"entry_id": entry_id, "version": version, "data": data, "at": utcnow()},
    )
    offset = (data.get("offset") or {}).get("value")
    deviations = (data.get("deviations") or {}).get("value")
    adjoined = (data.get("adjoined_moves") or {}).get("value")
    pairs = (data.get("cone_pairs") or {}).get("value") or {}
    form = pairs.get("form") if pairs.get("form") and pairs["form"]["holds"] else None
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
        cone_slope=pairs["slope"] if pairs.get("difference_linear") else None,
        cone_s=form["s"] if form else None,
        cone_t=form["t"] if form else None,
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

    One ``INSERT … ON CONFLICT DO UPDATE`` of those columns: a fill and a
    first ``show`` of the same entry may write at once, and neither fails.
    """
    upsert = _facts_upsert(session.get_bind().dialect.name, tuple(values))
    session.execute(upsert, {"entry_id": entry_id, **values})


@functools.cache
def _invariants_upsert(dialect: str) -> Any:
    """The upsert of an entry's invariants row, built once."""
    table = tables.invariants
    statement = insert_of(dialect)(table).values(
        entry_id=bindparam("entry_id"),
        version=bindparam("version"),
        data=bindparam("data", type_=table.c.data.type),
        computed_at=bindparam("at"),
    )
    return statement.on_conflict_do_update(
        index_elements=["entry_id"],
        set_={c: statement.excluded[c] for c in ("version", "data", "computed_at")},
    )


@functools.cache
def _facts_upsert(dialect: str, columns: tuple[str, ...]) -> Any:
    """The upsert of ``columns`` of a facts row, built once a set of columns
    (statements built per call were a tenth of a seed's time)."""
    statement = insert_of(dialect)(tables.facts).values(
        {"entry_id": bindparam("entry_id"), **{c: bindparam(c) for c in columns}}
    )
    return statement.on_conflict_do_update(
        index_elements=["entry_id"], set_={c: statement.excluded[c] for c in columns}
    )
