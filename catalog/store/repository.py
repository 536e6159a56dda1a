"""Reading and writing entries and their stored results.

Every function takes the session first and never creates, commits or closes
it: the CLI's ``with Session.begin():`` or the web teardown does.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from sqlalchemy import delete, func, select
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
    Invariants,
    Offset,
    PositionChunk,
    SearchGram,
    utcnow,
)
from catalog.store.models import (
    Sequence as SequenceRow,
)
from catalog.store.search import gram_hash


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
    for model in (
        PositionChunk,
        SequenceRow,
        SearchGram,
        Bitstring,
        Offset,
        Invariants,
        Extent,
    ):
        session.execute(delete(model).where(model.entry_id == entry.id))
    session.execute(
        delete(CrossReference).where(
            (CrossReference.entry_id == entry.id)
            | (CrossReference.other_id == entry.id)
        )
    )
    session.expire(entry, ["extent"])


def list_entries(
    session: Session,
    *,
    keyword: str | None = None,
    words: Iterable[str] = (),
    after: int = 0,
    limit: int = 100,
) -> list[Entry]:
    """Entries with id > after, in ID order; ``words`` must all be in the name."""
    query = select(Entry).where(Entry.id > after).order_by(Entry.id).limit(limit)
    if keyword:
        query = query.join(EntryKeyword).where(EntryKeyword.keyword == keyword.lower())
    for word in words:
        # Bound parameter, with % and _ escaped: a word is matched literally.
        query = query.where(
            func.lower(Entry.name).contains(word.lower(), autoescape=True)
        )
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


class ChunkCache:
    """Decoded chunks, least recently used first out. Safe to share: a key
    holds the chunk's checksum, so a rewritten chunk is a new key."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int, str]) -> np.ndarray | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[int, int, str], value: np.ndarray) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def iter_chunks(
    session: Session,
    entry_id: int,
    x0: int = 0,
    x1: int | None = None,
    cache: ChunkCache | None = None,
) -> Iterator[np.ndarray]:
    """The decoded chunks that cover columns [x0, x1), in column order.

    Only the chunks' metadata is read first; a chunk's data is fetched and
    checked only when ``cache`` does not already hold it.
    """
    query = (
        select(PositionChunk.x0, PositionChunk.checksum)
        .where(PositionChunk.entry_id == entry_id, PositionChunk.x1 > x0)
        .order_by(PositionChunk.x0)
    )
    if x1 is not None:
        query = query.where(PositionChunk.x0 < x1)
    for start, digest in session.execute(query).all():
        key = (entry_id, start, digest)
        found = cache.get(key) if cache is not None else None
        if found is None:
            # Read the row whole: a concurrent fill may have rewritten this
            # (partial, last) chunk since the metadata query.
            count, encoding, digest, data = session.execute(
                select(
                    PositionChunk.count,
                    PositionChunk.encoding,
                    PositionChunk.checksum,
                    PositionChunk.data,
                ).where(PositionChunk.entry_id == entry_id, PositionChunk.x0 == start)
            ).one()
            key = (entry_id, start, digest)
            found = chunks.decode_positions(encoding, data, count)
            if chunks.checksum(found) != digest:
                raise chunks.CorruptChunk(
                    f"{format_id(entry_id)}: chunk at column {start} fails its checksum"
                )
            if cache is not None:
                cache.put(key, found)
        yield found


def read_positions(
    session: Session,
    entry_id: int,
    x0: int = 0,
    x1: int | None = None,
    y1: int | None = None,
    cache: ChunkCache | None = None,
) -> np.ndarray:
    """Stored P-positions with x0 <= x < x1 (and y < y1), loading only the
    chunks that cover those columns."""
    parts = list(iter_chunks(session, entry_id, x0, x1, cache))
    if not parts:
        return np.zeros((0, 2), dtype=np.int64)
    found = np.concatenate(parts)
    keep = found[:, 0] >= x0
    if x1 is not None:
        keep &= found[:, 0] < x1
    if y1 is not None:
        keep &= found[:, 1] < y1
    return found[keep]


def covers(session: Session, entry_id: int, n: int) -> bool:
    """Does the store hold every P-position of the entry with x, y < n?"""
    row = session.execute(
        select(Extent.x_bound, Extent.y_bound).where(Extent.entry_id == entry_id)
    ).first()
    if row is None:
        return n == 0
    x_bound, y_bound = row
    return x_bound >= n and (y_bound is None or y_bound >= n)


def read_page(
    session: Session,
    entry_id: int,
    n: int,
    start: tuple[int, int],
    limit: int,
    cache: ChunkCache | None = None,
) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Up to ``limit`` positions with x, y < n from ``start`` = (x, y) on, in
    order, and where the next page starts (None after the last one)."""
    parts: list[np.ndarray] = []
    have = 0
    for found in iter_chunks(session, entry_id, start[0], n, cache):
        # Chunks are sorted by (x, y): slice by binary search, filter the slice.
        xs = found[:, 0]
        lo, hi = np.searchsorted(xs, start[0]), np.searchsorted(xs, start[0], "right")
        first = lo + int(np.searchsorted(found[lo:hi, 1], start[1]))
        stop = np.searchsorted(xs, n)
        piece = found[first:stop]
        piece = piece[piece[:, 1] < n]
        parts.append(piece[: limit + 1 - have])
        have += len(parts[-1])
        if have > limit:
            break
    page = np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)
    if len(page) > limit:
        x, y = page[limit].tolist()
        return page[:limit], (x, y)
    return page, None


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
