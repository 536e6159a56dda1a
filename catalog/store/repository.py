"""Reading and writing entries and their stored results.

Every function takes the session first and never creates, commits or closes
it: the CLI's ``with Session.begin():`` or the web teardown does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from catalog.games.definition import Definition
from catalog.store import chunks
from catalog.store.ids import UnknownEntry, format_id, next_free
from catalog.store.models import (
    Alteration,
    Bitstring,
    CrossReference,
    Entry,
    EntryKeyword,
    Extent,
    Game,
    Offset,
    PositionChunk,
    utcnow,
)
from catalog.store.models import (
    Sequence as SequenceRow,
)


def get_entry(session: Session, number: int) -> Entry:
    entry = session.get(Entry, number)
    if entry is None:
        raise UnknownEntry(f"no entry {format_id(number)}")
    return entry


def find_entry(session: Session, game: Definition) -> Entry | None:
    return session.scalar(select(Entry).where(Entry.key == game.key))


def _game_row(session: Session, game: Definition) -> Game:
    row = session.scalar(select(Game).where(Game.key == game.rules_key))
    if row is None:
        rules = game.rules_json()
        row = Game(
            key=game.rules_key,
            rays=rules["rays"],
            moves=rules["moves"],
            special=rules["special"],
            created_at=utcnow(),
        )
        session.add(row)
    return row


def _alteration_row(session: Session, game: Definition) -> Alteration | None:
    if not game.altered:
        return None
    row = session.scalar(
        select(Alteration).where(Alteration.key == game.alteration_key)
    )
    if row is None:
        cells = game.forced_p + game.forced_n
        row = Alteration(
            key=game.alteration_key,
            forced_p=[list(c) for c in game.forced_p],
            forced_n=[list(c) for c in game.forced_n],
            cells=len(cells),
            width=1 + max(x for x, _ in cells),
            height=1 + max(y for _, y in cells),
            created_at=utcnow(),
        )
        session.add(row)
    return row


def add_entry(
    session: Session,
    game: Definition,
    *,
    name: str | None = None,
    number: int | None = None,
    source: str = "user",
    description: str = "",
    references: Sequence[Any] = (),
    keywords: Iterable[str] = (),
    provenance: str = "",
) -> tuple[Entry, bool]:
    """The entry for ``game``, created if no entry has the same definition.

    Returns ``(entry, created)``. Without ``number`` the next free ID is taken;
    two sessions racing for the same definition or ID retry inside a savepoint.
    """
    for _attempt in range(5):
        existing = find_entry(session, game)
        if existing is not None:
            return existing, False
        try:
            with session.begin_nested():
                now = utcnow()
                entry = Entry(
                    id=number if number is not None else next_free(session),
                    key=game.key,
                    name=name or default_name(game),
                    description=description,
                    references=list(references),
                    keywords=sorted(set(keywords)),
                    provenance=provenance,
                    source=source,
                    definition=game.to_json(),
                    game=_game_row(session, game),
                    alteration=_alteration_row(session, game),
                    created_at=now,
                    updated_at=now,
                )
                session.add(entry)
                session.flush()
                _set_keywords(session, entry)
        except IntegrityError:
            # Another writer took this definition or this ID first: look again.
            if number is not None and session.get(Entry, number) is not None:
                raise
            continue
        return entry, True
    raise RuntimeError("could not allocate an entry ID after 5 attempts")


def update_entry(
    session: Session, entry: Entry, game: Definition, **fields: Any
) -> bool:
    """Bring ``entry`` in line with ``game`` and ``fields``; True if it changed.

    A changed definition drops every stored result: they belong to the old game.
    """
    changed = False
    if entry.key != game.key:
        clear_results(session, entry)
        entry.key = game.key
        entry.definition = game.to_json()
        entry.game = _game_row(session, game)
        entry.alteration = _alteration_row(session, game)
        changed = True
    if "keywords" in fields:
        fields["keywords"] = sorted(set(fields["keywords"]))
    for name, value in fields.items():
        if getattr(entry, name) != value:
            setattr(entry, name, value)
            changed = True
    if changed:
        entry.updated_at = utcnow()
        session.flush()
        _set_keywords(session, entry)
    return changed


def _set_keywords(session: Session, entry: Entry) -> None:
    session.execute(delete(EntryKeyword).where(EntryKeyword.entry_id == entry.id))
    session.add_all(EntryKeyword(entry_id=entry.id, keyword=k) for k in entry.keywords)


def clear_results(session: Session, entry: Entry) -> None:
    """Forget everything computed for ``entry``."""
    for model in (PositionChunk, SequenceRow, Bitstring, Offset, Extent):
        session.execute(delete(model).where(model.entry_id == entry.id))
    session.execute(
        delete(CrossReference).where(
            (CrossReference.entry_id == entry.id)
            | (CrossReference.other_id == entry.id)
        )
    )
    session.expire(entry, ["extent"])


def list_entries(
    session: Session, *, keyword: str | None = None, after: int = 0, limit: int = 100
) -> list[Entry]:
    query = select(Entry).where(Entry.id > after).order_by(Entry.id).limit(limit)
    if keyword:
        query = query.join(EntryKeyword).where(EntryKeyword.keyword == keyword.lower())
    return list(session.scalars(query))


def default_name(game: Definition) -> str:
    parts = ["rays " + " ".join(f"({a},{b})" for a, b in game.rays)]
    if game.moves:
        parts.append("moves " + " ".join(f"({a},{b})" for a, b in game.moves))
    if game.special:
        parts.append(", ".join(game.special))
    if game.altered:
        parts.append(f"{len(game.forced_p)} forced P, {len(game.forced_n)} forced N")
    return "Game with " + "; ".join(parts)


# -- P-positions ----------------------------------------------------------


def get_extent(session: Session, entry_id: int) -> Extent | None:
    return session.get(Extent, entry_id)


def write_chunk(
    session: Session,
    entry_id: int,
    x0: int,
    x1: int,
    y_bound: int | None,
    positions: np.ndarray,
) -> PositionChunk:
    """Store the P-positions of columns [x0, x1), replacing a chunk at x0."""
    session.execute(
        delete(PositionChunk).where(
            PositionChunk.entry_id == entry_id, PositionChunk.x0 == x0
        )
    )
    encoding, data = chunks.encode_positions(positions)
    row = PositionChunk(
        entry_id=entry_id,
        x0=x0,
        x1=x1,
        y_bound=y_bound,
        count=len(positions),
        encoding=encoding,
        data=data,
        checksum=chunks.checksum(positions),
        created_at=utcnow(),
    )
    session.add(row)
    return row


def read_positions(
    session: Session,
    entry_id: int,
    x0: int = 0,
    x1: int | None = None,
    y1: int | None = None,
) -> np.ndarray:
    """Stored P-positions with x0 <= x < x1 (and y < y1), loading only the
    chunks that cover those columns."""
    query = (
        select(PositionChunk)
        .where(PositionChunk.entry_id == entry_id, PositionChunk.x1 > x0)
        .order_by(PositionChunk.x0)
    )
    if x1 is not None:
        query = query.where(PositionChunk.x0 < x1)
    parts = []
    for row in session.scalars(query):
        found = chunks.decode_positions(row.encoding, row.data, row.count)
        if chunks.checksum(found) != row.checksum:
            raise chunks.CorruptChunk(
                f"{format_id(entry_id)}: chunk at column {row.x0} fails its checksum"
            )
        parts.append(found)
    if not parts:
        return np.zeros((0, 2), dtype=np.int64)
    found = np.concatenate(parts)
    keep = found[:, 0] >= x0
    if x1 is not None:
        keep &= found[:, 0] < x1
    if y1 is not None:
        keep &= found[:, 1] < y1
    return found[keep]


def chunk_rows(session: Session, entry_id: int) -> list[PositionChunk]:
    query = select(PositionChunk).where(PositionChunk.entry_id == entry_id)
    return list(session.scalars(query.order_by(PositionChunk.x0)))


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
