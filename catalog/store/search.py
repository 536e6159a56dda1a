"""OEIS-style search: which entries' sequences contain these terms?

The index is a table (:class:`~catalog.store.models.SearchGram`) read in
the primary key's order, entry by entry:

- for the integer sequences (y, a, b, b−a), one row per position of their
  first :data:`INDEXED_TERMS` terms, keyed by a 63-bit hash of the
  :data:`GRAM` terms starting there. A query becomes one self-join of the
  table on up to :data:`JOINED_WINDOWS` of its windows at their relative
  positions;
- for the bit sequences, one row per distinct *factor* (run) of 3 to
  :data:`LONGEST_FACTOR` bits in their first :data:`INDEXED_TERMS` terms,
  at the place where it first occurs. The bit sequences of these games
  have few distinct factors (a Sturmian word has L + 1 of length L): about
  130 rows for Wythoff's Nim, 400 for a game with an adjoined move pair,
  1400 for Maharaja Nim. A 0/1 query of up to 15 terms is one such row; a
  longer one reads the entries holding its rarest 15-bit factor. (Grams of
  bits match nearly everywhere: a positional join of 16-bit grams took a
  minute on 10,000 entries.)

Every candidate the index gives is checked against the stored terms, which
also give the place of the first match: neither a hash collision nor an
unjoined window can produce a false match, and an entry is never dropped
because its first candidate place was false. Plain SQL with bound
parameters, the same on SQLite and PostgreSQL.

A match is a run of the query's terms within a sequence's first
:data:`INDEXED_TERMS` terms; each (entry, sequence) is listed once, at its
first match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import (
    LargeBinary,
    TextClause,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.orm import Session

from catalog.errors import BadInput, Unprocessable
from catalog.inputs import (
    MAX_KEYWORD_LENGTH,
    MAX_QUERY_LENGTH,
    check_text,
    parse_int,
    parse_words,
    shown,
)
from catalog.store import chunks
from catalog.store.db import Reader
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
#: Sequences in order of specificity (ties in ranking go to the earlier one).
KINDS = {"y": 1, "a": 2, "b": 3, "b-a": 4, "bits": 5}
NAMES = {code: name for name, code in KINDS.items()}
#: Gram length of the integer sequences' index rows (``kind`` = their code).
GRAM = {1: 3, 2: 3, 3: 3, 4: 3}
#: The bit sequences are indexed by their distinct factors (runs) of
#: MIN_QUERY_TERMS to LONGEST_FACTOR bits, each at its first place, under
#: this ``kind``. (Row kind 5, 16-bit grams, was an older index: reindex.)
BIT_FACTORS = 6
LONGEST_FACTOR = 15


class BadQuery(Unprocessable):
    """A search query that cannot be run; the message says why (422: the
    query's grammar is the document's description, not a pattern)."""


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
    terms = np.asarray(terms[:INDEXED_TERMS], dtype=np.int64)
    if code == KINDS["bits"]:
        return _factor_rows(entry_id, terms)
    k = GRAM[code]
    if len(terms) < k:
        return []
    windows = np.lib.stride_tricks.sliding_window_view(terms, k)
    # One row per (gram, position): the primary key.
    return [
        {"gram": int(g), "entry_id": entry_id, "kind": code, "position": i}
        for i, g in enumerate(gram_hash(windows).tolist())
    ]


def _factor_rows(entry_id: int, bits: np.ndarray) -> list[dict[str, int]]:
    """One row per distinct factor of MIN_QUERY_TERMS .. LONGEST_FACTOR bits,
    at its first place."""
    if bits.size and (bits.min() < 0 or bits.max() > 1):
        return []  # not a bit sequence: nothing a 0/1 query could match
    seen: dict[tuple[int, int], dict[str, int]] = {}
    for length in range(MIN_QUERY_TERMS, LONGEST_FACTOR + 1):
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
    if not rows:
        return
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        # COPY: psycopg's executemany sends one statement per row (a few
        # thousand rows an entry, 40 ms of round trips for each 100).
        raw = connection.connection.driver_connection
        assert raw is not None
        with raw.cursor() as cursor, cursor.copy(_COPY) as copy:
            for row in rows:
                copy.write_row(tuple(row[c] for c in _COPY_COLUMNS))
    else:
        session.execute(insert(SearchGram), rows)


_COPY_COLUMNS = ("gram", "entry_id", "kind", "position")
_COPY = f"COPY search_grams ({', '.join(_COPY_COLUMNS)}) FROM STDIN"


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
    session: Reader, query: dict[str, Any], offset: int = 0, limit: int = 50
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
    codes = [c for c in NAMES if c != KINDS["bits"] or want.max() <= 1]
    scans = {c: _Scan(session, c, _lookup(session, want, c), want) for c in codes}
    found: list[dict[str, Any]] = []
    for at_start in (True, False):
        for code in codes:
            if len(found) >= wanted:
                break
            found += scans[code].matches(at_start, wanted - len(found))
    return found[offset : offset + limit], len(found) > offset + limit


#: Windows of a query joined in SQL (spread over the query); the rest of the
#: query is checked against the stored terms.
JOINED_WINDOWS = 4


def _places_sql(joins: int) -> TextClause:
    """The self-join of the index for ``joins`` more windows, as plain SQL
    with bound parameters (built once: the ORM's per-statement overhead
    was most of a query's time)."""
    if joins not in _SQL:
        lines = ["SELECT g0.entry_id, g0.position FROM search_grams g0"]
        for i in range(1, joins + 1):
            lines.append(
                f"JOIN search_grams g{i} ON g{i}.gram = :gram{i} "
                f"AND g{i}.entry_id = g0.entry_id AND g{i}.kind = g0.kind "
                f"AND g{i}.position = g0.position + :shift{i}"
            )
        lines.append(
            "WHERE g0.gram = :gram0 AND g0.kind = :kind AND g0.entry_id > :after "
            "AND g0.position BETWEEN :lowest AND :highest"
        )
        lines.append("ORDER BY g0.entry_id, g0.position LIMIT :batch")
        _SQL[joins] = text("\n".join(lines))
    return _SQL[joins]


_SQL: dict[int, TextClause] = {}
#: No place in the index is this far.
_FAR = 2**62


@dataclass(frozen=True)
class _Lookup:
    """How the index is read for one sequence: ``grams`` (index kind
    ``kind``) joined at ``shifts`` from the first; for bits, the factor at
    ``shift`` within the query, and whether it is the whole query."""

    kind: int
    grams: tuple[int, ...]
    shifts: tuple[int, ...] = ()
    shift: int = 0
    whole: bool = False


def _lookup(session: Reader, want: np.ndarray, code: int) -> _Lookup:
    if code != KINDS["bits"]:
        k = GRAM[code]
        grams = gram_hash(np.lib.stride_tricks.sliding_window_view(want, k)).tolist()
        count = len(grams)
        chosen = sorted(
            {
                round(i * (count - 1) / (JOINED_WINDOWS - 1))
                for i in range(JOINED_WINDOWS)
            }
        )
        return _Lookup(code, tuple(grams[j] for j in chosen), tuple(chosen))
    if len(want) <= LONGEST_FACTOR:  # the factor rows hold the query whole
        return _Lookup(
            BIT_FACTORS, (int(gram_hash(want[np.newaxis, :])[0]),), whole=True
        )
    # A longer 0/1 query: every entry holding it holds each of its factors of
    # LONGEST_FACTOR bits. Read the one that the fewest entries hold.
    windows = np.lib.stride_tricks.sliding_window_view(want, LONGEST_FACTOR)
    grams = gram_hash(windows).tolist()
    held = dict(
        session.execute(
            select(SearchGram.gram, func.count())
            .where(SearchGram.kind == BIT_FACTORS, SearchGram.gram.in_(set(grams)))
            .group_by(SearchGram.gram)
        ).all()
    )
    shift = min(range(len(grams)), key=lambda j: held.get(grams[j], 0))
    return _Lookup(BIT_FACTORS, (grams[shift],), shift=shift)


def _candidates(lookup: _Lookup) -> tuple[TextClause, dict[str, int]]:
    """The index query whose rows include every entry whose sequence holds
    the query, first at place 0 or further on."""
    params = {"gram0": lookup.grams[0], "kind": lookup.kind}
    for i in range(1, len(lookup.grams)):
        params[f"gram{i}"] = lookup.grams[i]
        params[f"shift{i}"] = lookup.shifts[i]
    # A factor of bits, unless it is the whole query, first occurs at or
    # before its place in the match: any place will do either way.
    params["lowest"], params["highest"] = 0, _FAR
    return _places_sql(len(lookup.grams) - 1), params


class _Scan:
    """The matches in one sequence, read from the index in entry order
    (keyset pages) and checked against the stored terms as far as asked:
    those whose first match is at place 0 (``at_start``) and the others,
    each in entry order. One scan serves both lists, so a query reads each
    candidate once."""

    def __init__(
        self, session: Reader, code: int, lookup: _Lookup, want: np.ndarray
    ) -> None:
        self.session = session
        self.code = code
        self.stmt, self.params = _candidates(lookup)
        self.want = want
        self.found: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
        self.after = -1
        self.pending: list[int] = []  # candidates read, not checked yet
        self.done = False  # the index has no more candidates
        self.take = 0

    def matches(self, at_start: bool, wanted: int) -> list[dict[str, Any]]:
        """The first ``wanted`` matches of the kind asked (fewer if there
        are no more)."""
        have = self.found[at_start]
        self.take = wanted - len(have) + 4
        while len(have) < wanted and (self.pending or not self.done):
            if not self.pending:
                self._read(wanted - len(have))
                continue
            # Check no more candidates than the list still needs (most are
            # real matches): reading and decoding stored terms is the costly
            # part. When few of them match, check more at a time.
            checked, self.pending = self.pending[: self.take], self.pending[self.take :]
            confirmed = _confirmed(self.session, checked, self.want, self.code)
            for match in confirmed:
                self.found[match.pop("start")].append(match)
            if 2 * len(confirmed) < len(checked):
                self.take = min(2 * self.take, 1000)
        return have[:wanted]

    def _read(self, missing: int) -> None:
        """The next keyset page of candidate entries (an entry can have many
        candidate places: it is checked once, and the next page starts
        after it)."""
        batch = 4 * missing + 16
        rows = self.session.execute(
            self.stmt, {**self.params, "after": self.after, "batch": batch}
        ).all()
        for entry_id, _place in rows:
            if entry_id != self.after:
                self.pending.append(entry_id)
                self.after = entry_id
        self.done = len(rows) < batch


#: Bytes of a stored sequence read to decode its indexed terms: zlib's
#: output is never much longer than its input (8 bytes a term at most).
_HEAD_BYTES = 8 * INDEXED_TERMS + 1024


#: The stored head of each of some entries' sequence of one name.
_HEADS = (
    select(
        SequenceRow.entry_id,
        Entry.name,
        SequenceRow.offset,
        SequenceRow.length,
        SequenceRow.encoding,
        func.substr(SequenceRow.data, 1, _HEAD_BYTES, type_=LargeBinary),
    )
    .join(Entry, Entry.id == SequenceRow.entry_id)
    .where(
        SequenceRow.entry_id.in_(bindparam("entries", expanding=True)),
        SequenceRow.name == bindparam("name"),
    )
)
_WHOLE = select(SequenceRow.data).where(
    SequenceRow.entry_id == bindparam("entry"), SequenceRow.name == bindparam("name")
)


def _confirmed(
    session: Reader, entries: list[int], want: np.ndarray, code: int
) -> list[dict[str, Any]]:
    """The matches among ``entries`` (in their order), from the stored terms;
    ``start``: whether the first match is at place 0."""
    if not entries:
        return []
    name = NAMES[code]
    rows = session.execute(_HEADS, {"entries": entries, "name": name}).all()
    stored = {row[0]: row[1:] for row in rows}
    results: list[dict[str, Any]] = []
    for entry_id in entries:
        if entry_id not in stored:
            continue  # the index is newer than this read: no terms to check
        entry_name, start, length, encoding, head = stored[entry_id]
        needed = min(length, INDEXED_TERMS)
        terms = chunks.decode_ints(encoding, head, needed)
        if len(terms) < needed:  # compressed worse than the bound: read it all
            data = session.scalar(_WHOLE, {"entry": entry_id, "name": name})
            terms = chunks.decode_ints(encoding, data or b"", needed)
        place = first_match(terms, want)
        if place is None:
            continue
        results.append(
            {
                "id": format_id(entry_id),
                "name": entry_name,
                "sequence": name,
                "index": start + place,
                "start": place == 0,
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
    session: Reader, words: list[str], offset: int, limit: int
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
