"""OEIS-style search: which entries' sequences contain these terms?

The index is a table of term n-grams (:class:`~catalog.store.models.SearchGram`):
for every position of the first :data:`INDEXED_TERMS` terms of each stored
sequence, a 63-bit hash of the ``k`` terms starting there. A query of at
least ``k`` terms becomes one self-join of that table on up to
:data:`JOINED_WINDOWS` of its windows at their relative positions, read in
the primary key's order (entry by entry).

The bit sequences are 0/1, so their grams are long (16 terms) to be
selective; a shorter 0/1 query is looked up among the *factors* of the bit
sequences instead: one row per distinct run of 3 to 15 bits in each
sequence's first :data:`INDEXED_TERMS` terms, with the place where it first
occurs. The bit sequences of these games have few distinct factors (a
Sturmian word has L + 1 of length L), so this adds about a hundred rows per
entry, and such a lookup returns only real matches.

Every candidate the index gives is checked against the stored terms, which
also give the place of the first match: neither a hash collision nor an
unjoined window can produce a false match, and an entry is never dropped
because its first candidate place was false. Plain SQL with bound
parameters, the same on SQLite and PostgreSQL; nothing scans every sequence.

A match is a run of the query's terms within a sequence's first
:data:`INDEXED_TERMS` terms; each (entry, sequence) is listed once, at its
first match.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from sqlalchemy import LargeBinary, TextClause, delete, func, insert, select, text
from sqlalchemy.orm import Session

from catalog.errors import BadInput
from catalog.inputs import (
    MAX_KEYWORD_LENGTH,
    MAX_QUERY_LENGTH,
    check_text,
    parse_int,
    parse_words,
    shown,
)
from catalog.store import chunks
from catalog.store.ids import BadId, format_id, parse_id
from catalog.store.models import Entry, EntryKeyword, Label, SearchGram
from catalog.store.models import Sequence as SequenceRow

#: Terms of each sequence that are indexed (and searched).
INDEXED_TERMS = 1000
#: Fewest and most terms in one query.
MIN_QUERY_TERMS = 3
MAX_QUERY_TERMS = 64
#: Terms must lie below this (the index hashes 64-bit integers).
MAX_TERM = 2**62 - 1
#: Largest ``offset`` of a page of results, and largest page.
MAX_SEARCH_OFFSET = 10_000
MAX_SEARCH_LIMIT = 1000
#: Sequences in order of specificity (ties in ranking go to the earlier one),
#: with the gram length used for each: a 0/1 sequence needs longer grams to
#: make a lookup selective.
KINDS = {"y": 1, "a": 2, "b": 3, "b-a": 4, "bits": 5}
GRAM = {1: 3, 2: 3, 3: 3, 4: 3, 5: 16}
NAMES = {code: name for name, code in KINDS.items()}
#: Index rows of the distinct factors of 3 to GRAM[5] - 1 bits of each bit
#: sequence (``position``: their first place).
BIT_FACTORS = 6


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
    rows = []
    if len(terms) >= k:
        windows = np.lib.stride_tricks.sliding_window_view(terms, k)
        # One row per (gram, position): the primary key.
        rows = [
            {"gram": int(g), "entry_id": entry_id, "kind": code, "position": i}
            for i, g in enumerate(gram_hash(windows).tolist())
        ]
    if code == KINDS["bits"]:
        rows += _factor_rows(entry_id, terms)
    return rows


def _factor_rows(entry_id: int, bits: np.ndarray) -> list[dict[str, int]]:
    """One row per distinct factor of MIN_QUERY_TERMS .. GRAM[bits] - 1 bits,
    at its first place."""
    if bits.size and (bits.min() < 0 or bits.max() > 1):
        return []  # not a bit sequence: nothing a 0/1 query could match
    seen: dict[tuple[int, int], dict[str, int]] = {}
    for length in range(MIN_QUERY_TERMS, GRAM[KINDS["bits"]]):
        if bits.size < length:
            break
        windows = np.lib.stride_tricks.sliding_window_view(bits, length)
        codes = windows @ (1 << np.arange(length, dtype=np.int64))
        _, first = np.unique(codes, return_index=True)
        for g, place in zip(
            gram_hash(windows[first]).tolist(), first.tolist(), strict=True
        ):
            row = {"gram": g, "entry_id": entry_id, "kind": BIT_FACTORS}
            seen[(g, place)] = {**row, "position": place}
    return list(seen.values())


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


#: A list of terms: ASCII digits, signs, commas and ASCII white space.
_TERMS = re.compile(r"[-+0-9,\s]+", re.ASCII)
#: The same with any script's digits and white space.
_ANY_TERMS = re.compile(r"[-+\d,\s]+")


def parse(query: str) -> dict[str, Any]:
    """Terms (``1,3,4,6`` or ``1 3 4 6``), or words: ``id:W…`` (or a label,
    ``id:box.8.13``), ``keyword:…``, ``family:…`` and words of the name."""
    try:
        check_text(query, "q", MAX_QUERY_LENGTH, allow_empty=True)
    except BadInput as exc:
        raise BadQuery(str(exc)) from None
    query = query.strip()
    if not query:
        raise BadQuery("q: empty query")
    if _TERMS.fullmatch(query):
        pieces = [p for p in re.split(r"[,\s]+", query, flags=re.ASCII) if p]
        if len(pieces) > MAX_QUERY_TERMS:
            raise BadQuery(f"q: at most {MAX_QUERY_TERMS} terms")
        if len(pieces) < MIN_QUERY_TERMS:
            raise BadQuery(f"q: give at least {MIN_QUERY_TERMS} terms")
        try:
            terms = [parse_int(p, "q: each term", 0, MAX_TERM) for p in pieces]
        except BadInput as exc:
            raise BadQuery(str(exc)) from None
        return {"terms": terms}
    if _ANY_TERMS.fullmatch(query):
        raise BadQuery(
            "q: write terms with the ASCII digits 0-9, separated by commas or spaces"
        )
    if any(c.isdigit() for c in query.split(",")[0]) and "," in query:
        raise BadQuery(f"q: not a list of integers: {shown(query)}")
    try:
        words = parse_words(query, "q")
    except BadInput as exc:
        raise BadQuery(str(exc)) from None
    for word in words:
        field, _, value = word.partition(":")
        if value and field.lower() == "id" and "." in value:
            pass  # a label (id:box.8.13); one no entry has matches nothing
        elif value and field.lower() == "id":
            try:
                parse_id(value)
            except BadId as exc:
                raise BadQuery(f"q: {exc}") from None
        elif value and field.lower() == "keyword" and len(value) > MAX_KEYWORD_LENGTH:
            raise BadQuery(f"q: a keyword has at most {MAX_KEYWORD_LENGTH} characters")
    return {"words": words}


def search(
    session: Session, query: dict[str, Any], offset: int = 0, limit: int = 50
) -> tuple[list[dict[str, Any]], bool]:
    """Ranked matches ``[{"id", "name", "sequence", "index"}, …]`` and
    whether more follow. Terms rank by: match at the start first, then the
    more specific sequence (y, a, b, b−a, bits), then the entry ID.

    Each (start or not, sequence) group reads its candidates from the index
    in entry order (:func:`_candidates`) and checks each against the stored
    terms, until ``offset + limit + 1`` matches are known.
    """
    if "words" in query:
        return _search_words(session, query["words"], offset, limit)
    want = np.asarray(query["terms"], dtype=np.int64)
    wanted = offset + limit + 1
    found: list[dict[str, Any]] = []
    for at_start in (True, False):
        for code in NAMES:
            if len(found) >= wanted:
                break
            if code == KINDS["bits"] and want.max() > 1:
                continue
            found += _matches(session, want, code, at_start, wanted - len(found))
    return found[offset : offset + limit], len(found) > offset + limit


#: Windows of a query joined in SQL (spread over the query); the rest of the
#: query is checked against the stored terms.
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


def _candidates(
    want: np.ndarray, code: int, at_start: bool
) -> tuple[TextClause, dict[str, int]]:
    """The index query whose rows include every entry whose sequence ``code``
    holds ``want`` first at place 0 (``at_start``) or first further on."""
    k = GRAM[code]
    if len(want) < k:  # a short 0/1 query: the bit factors hold it whole
        gram = int(gram_hash(want[np.newaxis, :])[0])
        return _places_sql(0, at_start), {"gram0": gram, "kind": BIT_FACTORS}
    grams = gram_hash(np.lib.stride_tricks.sliding_window_view(want, k)).tolist()
    count = len(grams)
    chosen = sorted(
        {round(i * (count - 1) / (JOINED_WINDOWS - 1)) for i in range(JOINED_WINDOWS)}
    )
    params: dict[str, int] = {"gram0": grams[0], "kind": code}
    for i, j in enumerate(chosen[1:], 1):
        params[f"gram{i}"] = grams[j]
        params[f"shift{i}"] = j
    return _places_sql(len(chosen) - 1, at_start), params


def _matches(
    session: Session, want: np.ndarray, code: int, at_start: bool, wanted: int
) -> list[dict[str, Any]]:
    """Up to ``wanted`` matches in sequence ``code``, in entry order: those
    whose first match is at place 0 (``at_start``) or those whose first match
    is further on."""
    stmt, params = _candidates(want, code, at_start)
    matches: list[dict[str, Any]] = []
    after = -1
    # Keyset pages in entry order; an entry can have many candidate places:
    # it is checked once, and the next page starts after it.
    while len(matches) < wanted:
        batch = 4 * (wanted - len(matches)) + 16
        rows = session.execute(stmt, {**params, "after": after, "batch": batch}).all()
        entries = []
        for entry_id, _place in rows:
            if entry_id != after:
                entries.append(entry_id)
                after = entry_id
        # Check no more candidates than the page still needs (most are real
        # matches): reading and decoding stored terms is the costly part.
        while entries and len(matches) < wanted:
            take = wanted - len(matches) + 4
            matches += _confirmed(session, entries[:take], want, code, at_start)
            entries = entries[take:]
        if len(rows) < batch:
            break
    return matches[:wanted]


#: Bytes of a stored sequence read to decode its indexed terms: zlib's
#: output is never much longer than its input (8 bytes a term at most).
_HEAD_BYTES = 8 * INDEXED_TERMS + 1024


def _confirmed(
    session: Session,
    entries: list[int],
    want: np.ndarray,
    code: int,
    at_start: bool,
) -> list[dict[str, Any]]:
    """The matches among ``entries`` (in their order), from the stored terms."""
    if not entries:
        return []
    query = (
        select(
            SequenceRow.entry_id,
            Entry.name,
            SequenceRow.offset,
            SequenceRow.length,
            SequenceRow.encoding,
            func.substr(SequenceRow.data, 1, _HEAD_BYTES, type_=LargeBinary),
        )
        .join(Entry, Entry.id == SequenceRow.entry_id)
        .where(SequenceRow.entry_id.in_(entries), SequenceRow.name == NAMES[code])
    )
    stored = {row[0]: row[1:] for row in session.execute(query).all()}
    results: list[dict[str, Any]] = []
    for entry_id in entries:
        if entry_id not in stored:
            continue  # the index is newer than this read: no terms to check
        name, start, length, encoding, head = stored[entry_id]
        needed = min(length, INDEXED_TERMS)
        terms = chunks.decode_ints(encoding, head, needed)
        if len(terms) < needed:  # compressed worse than the bound: read it all
            data = session.scalar(
                select(SequenceRow.data).where(
                    SequenceRow.entry_id == entry_id, SequenceRow.name == NAMES[code]
                )
            )
            terms = chunks.decode_ints(encoding, data or b"", needed)
        place = first_match(terms, want)
        if place is None or (place == 0) != at_start:
            continue
        results.append(
            {
                "id": format_id(entry_id),
                "name": name,
                "sequence": NAMES[code],
                "index": start + place,
            }
        )
    return results


def first_match(terms: np.ndarray, want: np.ndarray) -> int | None:
    """The first place where ``want`` occurs in ``terms``, or None."""
    places = len(terms) - len(want) + 1
    if places <= 0:
        return None
    # Narrow the places term by term: a few vectorised comparisons, where a
    # sliding window view costs more to build than the whole check.
    fits = terms[:places] == want[0]
    for j in range(1, len(want)):
        fits &= terms[j : j + places] == want[j]
    hits = np.flatnonzero(fits)
    return int(hits[0]) if hits.size else None


def _search_words(
    session: Session, words: list[str], offset: int, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    query = select(Entry.id, Entry.name).order_by(Entry.id)
    for word in words:
        field, _, value = word.partition(":")
        if value and field.lower() == "id" and "." in value:
            # A family member's label, e.g. id:maharaja.1.2.
            query = query.where(
                Entry.id.in_(select(Label.entry_id).where(Label.label == value))
            )
        elif value and field.lower() == "id":
            query = query.where(Entry.id == parse_id(value))
        elif value and field.lower() == "family":
            query = query.where(
                Entry.id.in_(select(Label.entry_id).where(Label.family == value))
            )
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
