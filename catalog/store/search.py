"""OEIS-style search: which entries' sequences contain these terms?

The index is a table of term n-grams (:class:`~catalog.store.models.SearchGram`):
for every position of the first :data:`INDEXED_TERMS` terms of each stored
sequence, a 63-bit hash of the ``k`` terms starting there. A query of at
least ``k`` terms looks up the hash of its first ``k`` terms (one indexed
equality, the same on SQLite and PostgreSQL), then checks the whole query
against each candidate's stored terms. Nothing scans every sequence.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

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


class BadQuery(ValueError):
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

    Every window of k query terms is looked up in the index (one query);
    a place matches when all windows are found at consecutive positions.
    The results returned are then checked term by term against the stored
    sequences, so a hash collision can never produce a false match.
    """
    if "words" in query:
        return _search_words(session, query["words"], offset, limit)
    want = np.asarray(query["terms"], dtype=np.int64)
    hits: dict[tuple[int, int], int] = {}
    for code, k in GRAM.items():
        if len(want) < k or (code == KINDS["bits"] and want.max() > 1):
            continue
        grams = gram_hash(np.lib.stride_tricks.sliding_window_view(want, k)).tolist()
        rows = session.execute(
            select(SearchGram.gram, SearchGram.entry_id, SearchGram.position).where(
                SearchGram.gram.in_(set(grams)), SearchGram.kind == code
            )
        ).all()
        places: dict[int, set[tuple[int, int]]] = {}
        for gram, entry_id, position in rows:
            places.setdefault(gram, set()).add((entry_id, position))
        common: set[tuple[int, int]] | None = None
        for j, gram in enumerate(grams):
            shifted = {(e, p - j) for e, p in places.get(gram, ())}
            common = shifted if common is None else common & shifted
            if not common:
                break
        for entry_id, position in sorted(common or ()):
            hits.setdefault((entry_id, code), position)
    ranked = sorted(hits.items(), key=lambda h: (h[1] > 0, h[0][1], h[0][0]))
    page = _confirmed(session, ranked[offset : offset + limit], want)
    return page, len(ranked) > offset + limit


def _confirmed(
    session: Session, ranked: list[tuple[tuple[int, int], int]], want: np.ndarray
) -> list[dict[str, Any]]:
    """The ranked hits whose stored terms really hold the query."""
    if not ranked:
        return []
    numbers = {e for (e, _), _ in ranked}
    query = select(
        SequenceRow.entry_id,
        SequenceRow.name,
        SequenceRow.offset,
        SequenceRow.encoding,
        SequenceRow.data,
    ).where(
        SequenceRow.entry_id.in_(numbers),
        SequenceRow.name.in_({NAMES[c] for (_, c), _ in ranked}),
    )
    stored = {
        (entry_id, name): (offset, chunks.decode_ints(encoding, data))
        for entry_id, name, offset, encoding, data in session.execute(query).all()
    }
    names = dict(
        session.execute(select(Entry.id, Entry.name).where(Entry.id.in_(numbers))).all()
    )
    results = []
    for (entry_id, code), position in ranked:
        offset, terms = stored[(entry_id, NAMES[code])]
        if np.array_equal(terms[position : position + len(want)], want):
            results.append(
                {
                    "id": format_id(entry_id),
                    "name": names[entry_id],
                    "sequence": NAMES[code],
                    "index": offset + position,
                }
            )
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
