"""What is derived from the P-positions or the definition and stored beside
them: sequences, bit-strings, cross-references, the search index and the
invariants.

Every function takes the session first and never creates, commits or closes
it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from catalog.store import chunks
from catalog.store.models import (
    Bitstring,
    CrossReference,
    Invariants,
    Offset,
    SearchGram,
    utcnow,
)
from catalog.store.models import Sequence as SequenceRow
from catalog.store.search import gram_hash


def replace_sequences(
    session: Session, entry_id: int, sequences: dict[str, tuple[int, np.ndarray, str]]
) -> None:
    """Store derived sequences: ``name -> (offset, terms, description)``."""
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


def read_sequences(session: Session, entry_id: int) -> dict[str, dict[str, Any]]:
    query = select(SequenceRow).where(SequenceRow.entry_id == entry_id)
    out = {}
    for row in session.scalars(query.order_by(SequenceRow.name)):
        terms = chunks.decode_ints(row.encoding, row.data)
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
    session.execute(
        delete(Bitstring).where(Bitstring.entry_id == entry_id, Bitstring.kind == kind)
    )
    session.add(
        Bitstring(
            entry_id=entry_id, kind=kind, start=start, length=len(bits), bits=bits
        )
    )


def read_bitstrings(session: Session, entry_id: int) -> list[Bitstring]:
    query = select(Bitstring).where(Bitstring.entry_id == entry_id)
    return list(session.scalars(query.order_by(Bitstring.kind)))


def xref_ids(session: Session, entry_id: int) -> list[int]:
    query = select(CrossReference.other_id).where(CrossReference.entry_id == entry_id)
    return sorted(session.scalars(query))


def link_equal_columns(session: Session, entry_id: int, column: np.ndarray) -> None:
    """Cross-reference the entries whose column sequence y(x) agrees with
    ``column`` on their common stored length (at least 100 columns): their
    P-positions agree in every column up to that bound."""
    session.execute(
        delete(CrossReference).where(
            (CrossReference.entry_id == entry_id)
            | (CrossReference.other_id == entry_id),
            CrossReference.relation == "same-p-positions",
        )
    )
    if len(column) < 100:
        return
    # Candidates from the search index: entries whose y starts the same way.
    same_start = (
        select(SearchGram.entry_id)
        .where(
            SearchGram.gram == int(gram_hash(np.asarray(column[:3])[None, :])[0]),
            SearchGram.kind == 1,
            SearchGram.position == 0,
            SearchGram.entry_id != entry_id,
        )
        .scalar_subquery()
    )
    others = session.execute(
        select(SequenceRow.entry_id, SequenceRow.encoding, SequenceRow.data).where(
            SequenceRow.name == "y", SequenceRow.entry_id.in_(same_start)
        )
    ).all()
    for other, encoding, data in others:
        theirs = chunks.decode_ints(encoding, data)
        bound = min(len(theirs), len(column))
        if bound >= 100 and np.array_equal(theirs[:bound], column[:bound]):
            for a, b in ((entry_id, other), (other, entry_id)):
                session.add(
                    CrossReference(
                        entry_id=a, other_id=b, relation="same-p-positions", bound=bound
                    )
                )


def reindex(session: Session) -> int:
    """Rebuild the search index from every stored sequence; return entries."""
    from catalog.store.search import index_sequences

    numbers = list(session.scalars(select(SequenceRow.entry_id).distinct()))
    for number in numbers:
        found = read_sequences(session, number)
        index_sequences(session, number, {k: v["terms"] for k, v in found.items()})
    return len(numbers)


def read_invariants(session: Session, entry_id: int, version: int) -> dict | None:
    """The stored invariants of an entry, or None if missing or older."""
    row = session.get(Invariants, entry_id)
    return row.data if row is not None and row.version >= version else None


def store_invariants(
    session: Session, entry_id: int, version: int, data: dict[str, Any]
) -> None:
    """Keep ``data`` (from :func:`catalog.compute.invariants.compute`), and the
    offset, defects and saturation column in their own columns."""
    now = utcnow()
    session.merge(
        Invariants(entry_id=entry_id, version=version, data=data, computed_at=now)
    )
    offset = data.get("offset")
    if offset is None:
        session.execute(delete(Offset).where(Offset.entry_id == entry_id))
        return
    session.merge(
        Offset(
            entry_id=entry_id,
            dx=offset["value"]["dx"],
            dy=offset["value"]["dy"],
            method=offset["method"],
            defects=data["defects"]["value"],
            saturation_column=data["saturation"]["value"]["column"],
            computed_at=now,
        )
    )
