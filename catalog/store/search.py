"""OEIS-style search: which entries' sequences contain these terms?

The index is a table of term n-grams (:class:`~catalog.store.models.SearchGram`):
for every position of the first :data:`INDEXED_TERMS` terms of each stored
sequence, a 63-bit hash of the ``k`` terms starting there. A query of at
least ``k`` terms becomes one self-join of that table on up to
:data:`JOINED_WINDOWS` of its windows at their relative positions, read in
the primary key's order (entry by entry) and stopped when the page is full;
the page is then checked term by term against the stored sequences. Plain
SQL with bound parameters, the same on SQLite and PostgreSQL; nothing scans
every sequence.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from sqlalchemy import TextClause, delete, func, insert, select, text
from sqlalchemy.orm import Session

from catalog.errors import BadInput
from catalog.store import chunks
from catalog.store.ids import format_id
from catalog.store.models import Entry, EntryKeyword, SearchGram
from catalog.store.models import Sequence as SequenceRow

#: Terms of each sequence that are indexed.
INDEXED_TERMS = 1000
#: Most terms in one query.
MAX_QUERY_TERMS = 64
#: Sequences in order of specificity (ties in ranking go to the earlier one),
#: with the gram length used for each: a 0/1 sequence needs longer grams to
#: make a lookup selective.
KINDS = {"y": 1, "a": 2, "b": 3, "b-a": 4, "bits": 5}
GRAM = {1: 3, 2: 3, 3: 3, 4: 3, 5: 16}
NAMES = {code: name for name, code in KINDS.items()}


class BadQuery(BadInput):
    """A search query that cannot be run; the message says why."""


def gram_hash(windows: np.ndarray) -> np.ndarray:
    """A 63-bit hash of each row of ``windows`` (k terms per row): FNV-style
    multiply and xor-shift, vectorised over rows. Collisions only cost a
    check: every candidate is compared with the query term by term."""
    rows = np.asarray(windows, dtype=np.int64).astype(np.uint64)
    h = np.full(len(rows), 0xCBF29CE484222325, dtype=np.uint64)
    for j in range(rows.shape[1]):
        h ^= rows[:, j]
        h *= np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return (h >> np.uint64(1)).astype(np.int64)


def gram_rows(entry_id: int, name: str, terms: np.ndarray) -> list[dict[str, int]]:
    code = KINDS.get(name)
    if code is None:
        return []
    k = GRAM[code]
    terms = np.asarray(terms[:INDEXED_TERMS], dtype=np.int64)
    if len(terms) < k:
        return []
    windows = np.lib.stride_tricks.sliding_window_view(terms, k)
    grams = gram_hash(windows)
    # One row per distinct (gram, position): the primary key.
    return [
        {"gram": int(g), "entry_id": entry_id, "kind": code, "position": i}
        for i, g in enumerate(grams.tolist())
    ]


def index_sequences(
    session: Session, entry_id: int, sequences: dict[str, np.ndarray]
) -> None:
    """Replace the entry's rows in the index by those of ``sequences``."""
    session.execute(delete(SearchGram).where(SearchGram.entry_id == entry_id))
    rows = [
        r for name, terms in sequences.items() for r in gram_rows(entry_id, name, terms)
    ]
    if rows:
        session.execute(insert(SearchGram), rows)


def parse(query: str) -> dict[str, Any]:
    """Terms (``1,3,4,6`` or ``1 3 4 6``), or words: ``id:W…``, ``keyword:…``
    and words of the name."""
    query = query.strip()
    if not query:
        raise BadQuery("q: empty query")
    if re.fullmatch(r"[-+0-9,\s]+", query):
        pieces = [p for p in re.split(r"[,\s]+", query) if p]
        terms = []
        for piece in pieces:
            if not re.fullmatch(r"[-+]?\d+", piece):
                raise BadQuery(f"q: not an integer: {piece!r}")
            terms.append(int(piece))
        if any(t < 0 for t in terms):
            raise BadQuery("q: terms must be non-negative integers")
        if len(terms) > MAX_QUERY_TERMS:
            raise BadQuery(f"q: at most {MAX_QUERY_TERMS} terms")
        if len(terms) < GRAM[1]:
            raise BadQuery(f"q: give at least {GRAM[1]} terms")
        if any(t >= 2**62 for t in terms):
            raise BadQuery("q: terms must be below 2**62")
        return {"terms": terms}
    if any(c.isdigit() for c in query.split(",")[0]) and "," in query:
        raise BadQuery(f"q: not a list of integers: {query!r}")
    return {"words": query.split()}


def search(
    session: Session, query: dict[str, Any], offset: int = 0, limit: int = 50
) -> tuple[list[dict[str, Any]], bool]:
    """Ranked matches ``[{"id", "name", "sequence", "index"}, …]`` and
    whether more follow. Terms rank by: match at the start first, then the
    more specific sequence (y, a, b, b−a, bits), then the entry ID.

    Each (start or not, sequence) group is one self-join of the index on up
    to :data:`JOINED_WINDOWS` windows of the query at their relative
    positions, read in entry order straight from the index's key order and
    stopped as soon as the page is full. The page is then checked term by
    term against the stored sequences, so neither a hash collision nor an
    unjoined window can produce a false match.
    """
    if "words" in query:
        return _search_words(session, query["words"], offset, limit)
    want = np.asarray(query["terms"], dtype=np.int64)
    wanted = offset + limit + 1
    kinds = [
        (code, k)
        for code, k in GRAM.items()
        if len(want) >= k and not (code == KINDS["bits"] and want.max() > 1)
    ]
    ranked: list[tuple[tuple[int, int], int]] = []
    for at_start in (True, False):
        for code, k in kinds:
            if len(ranked) >= wanted:
                break
            for entry_id, position in _places(
                session, want, code, k, at_start, wanted - len(ranked)
            ):
                ranked.append(((entry_id, code), position))
    page = _confirmed(session, ranked, want, offset, limit)
    return page, len(ranked) > offset + limit


#: Windows of a query joined in SQL (spread over the query); the rest of the
#: query is checked on the page.
JOINED_WINDOWS = 4


def _places_sql(joins: int, at_start: bool) -> TextClause:
    """The self-join of the index for ``joins`` more windows, as plain SQL
    with bound parameters (built once: the ORM's per-statement overhead
    was most of a query's time)."""
    key = (joins, at_start)
    if key not in _SQL:
        lines = ["SELECT g0.entry_id, g0.position FROM search_grams g0"]
        for i in range(1, joins + 1):
            lines.append(
                f"JOIN search_grams g{i} ON g{i}.gram = :gram{i} "
                f"AND g{i}.entry_id = g0.entry_id AND g{i}.kind = g0.kind "
                f"AND g{i}.position = g0.position + :shift{i}"
            )
        lines.append(
            "WHERE g0.gram = :gram0 AND g0.kind = :kind AND g0.entry_id > :after AND "
            + ("g0.position = 0" if at_start else "g0.position > 0")
        )
        lines.append("ORDER BY g0.entry_id, g0.position LIMIT :batch")
        _SQL[key] = text("\n".join(lines))
    return _SQL[key]


_SQL: dict[tuple[int, bool], TextClause] = {}


def _places(
    session: Session,
    want: np.ndarray,
    code: int,
    k: int,
    at_start: bool,
    wanted: int,
) -> list[tuple[int, int]]:
    """Up to ``wanted`` (entry, first position) pairs, in entry order, of the
    entries whose sequence ``code`` holds the query at position 0
    (``at_start``) or only further on."""
    grams = gram_hash(np.lib.stride_tricks.sliding_window_view(want, k)).tolist()
    count = len(grams)
    chosen = sorted(
        {round(i * (count - 1) / (JOINED_WINDOWS - 1)) for i in range(JOINED_WINDOWS)}
    )
    params: dict[str, int] = {"gram0": grams[0], "kind": code}
    for i, j in enumerate(chosen[1:], 1):
        params[f"gram{i}"] = grams[j]
        params[f"shift{i}"] = j
    stmt = _places_sql(len(chosen) - 1, at_start)
    places: list[tuple[int, int]] = []
    after = -1
    # Keyset pages in entry order; an entry can match at many places: keep
    # its first and continue after it.
    while len(places) < wanted:
        batch = 4 * (wanted - len(places)) + 16
        rows = session.execute(stmt, {**params, "after": after, "batch": batch}).all()
        for entry_id, position in rows:
            if entry_id != after:
                places.append((entry_id, position))
                after = entry_id
        if len(rows) < batch:
            break
    return places[:wanted]


def _confirmed(
    session: Session,
    ranked: list[tuple[tuple[int, int], int]],
    want: np.ndarray,
    offset: int,
    limit: int,
) -> list[dict[str, Any]]:
    """The page of ranked hits whose stored terms really hold the query."""
    if len(ranked) <= offset:
        return []
    candidates = ranked[offset:]
    numbers = {e for (e, _), _ in candidates}
    query = select(
        SequenceRow.entry_id,
        SequenceRow.name,
        SequenceRow.offset,
        SequenceRow.encoding,
        SequenceRow.data,
    ).where(
        SequenceRow.entry_id.in_(numbers),
        SequenceRow.name.in_({NAMES[c] for (_, c), _ in candidates}),
    )
    stored = {
        (entry_id, name): (start, chunks.decode_ints(encoding, data))
        for entry_id, name, start, encoding, data in session.execute(query).all()
    }
    names = dict(
        session.execute(select(Entry.id, Entry.name).where(Entry.id.in_(numbers))).all()
    )
    results: list[dict[str, Any]] = []
    for (entry_id, code), position in candidates:
        start, terms = stored[(entry_id, NAMES[code])]
        if np.array_equal(terms[position : position + len(want)], want):
            results.append(
                {
                    "id": format_id(entry_id),
                    "name": names[entry_id],
                    "sequence": NAMES[code],
                    "index": start + position,
                }
            )
            if len(results) == limit:
                break
    return results


def _search_words(
    session: Session, words: list[str], offset: int, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    query = select(Entry.id, Entry.name).order_by(Entry.id)
    for word in words:
        field, _, value = word.partition(":")
        if value and field.lower() == "id":
            number = value.upper().lstrip("W")
            query = query.where(Entry.id == (int(number) if number.isdigit() else -1))
        elif value and field.lower() == "keyword":
            query = query.where(
                Entry.id.in_(
                    select(EntryKeyword.entry_id).where(
                        EntryKeyword.keyword == value.lower()
                    )
                )
            )
        else:
            query = query.where(
                func.lower(Entry.name).contains(word.lower(), autoescape=True)
            )
    rows = session.execute(query.offset(offset).limit(limit + 1)).all()
    results = [{"id": format_id(e), "name": name} for e, name in rows[:limit]]
    return results, len(rows) > limit
