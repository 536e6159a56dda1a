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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from sqlalchemy import (
    Connection,
    Engine,
    LargeBinary,
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
from catalog.store.models import Entry, EntryKeyword, Label
from catalog.store.models import Sequence as SequenceRow
from catalog.store.tables import search_postings, search_segments

#: What the index's writes take: a session, or a connection (migrations).
Writer = Session | Connection
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
#: Gram length of the integer sequences' index (``kind`` = their code).
GRAM = 3
#: The bit sequences are indexed by their distinct factors (runs) of
#: MIN_QUERY_TERMS to LONGEST_FACTOR bits, under this ``kind``; the gram is
#: the run itself, ``1 << length | bits`` (no hash).
BIT_FACTORS = 6
LONGEST_FACTOR = 15
#: Kind 7 held hashes of y(x)'s first terms, the cross-references'
#: candidates, until those moved to ``facts`` (migration 0011): not reused.
#: The kinds START + code hold the grams of each sequence's start: the
#: candidates of the matches at place 0, ranked first.
START = 10
#: Grams of one query read from the index (spread over it); the rest of
#: the query is checked against the stored terms.
READ_GRAMS = 8
#: Entries written between two :func:`vacuum` runs of a seed or a worker.
VACUUM_ENTRIES = 1024
#: Segments of one level merged into one of the next (a power of 2). An
#: entry's postings are rewritten about log_FANOUT(entries) times, and a
#: query reads at most FANOUT - 1 segments a level.
FANOUT = 8


class BadQuery(Unprocessable):
    """A search query that cannot be run; the message says why (422: the
    query's grammar is the document's description, not a pattern)."""


def gram_hash(windows: np.ndarray) -> np.ndarray:
    """A 32-bit hash (signed) of each row of ``windows`` (k terms per row):
    FNV-style multiply and xor-shift, vectorised over rows. Collisions only
    cost a check: every candidate is compared with the query term by term."""
    rows = np.asarray(windows, dtype=np.int64).astype(np.uint64)
    h = np.full(len(rows), 0xCBF29CE484222325, dtype=np.uint64)
    for j in range(rows.shape[1]):
        h ^= rows[:, j]
        h *= np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return (h >> np.uint64(32)).astype(np.int64) - 2**31


def grams(name: str, terms: np.ndarray) -> tuple[int, np.ndarray] | None:
    """``(kind, distinct grams)`` of a stored sequence, None if it is not
    searched."""
    code = KINDS.get(name)
    if code is None:
        return None
    terms = np.asarray(terms[:INDEXED_TERMS], dtype=np.int64)
    if code == KINDS["bits"]:
        return BIT_FACTORS, bit_factors(terms)
    if len(terms) < GRAM:
        return code, np.empty(0, dtype=np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(terms, GRAM)
    return code, np.unique(gram_hash(windows))


def bit_runs(bits: np.ndarray, length: int) -> np.ndarray:
    """The gram of each run of ``length`` bits in ``bits``, by place."""
    windows = np.lib.stride_tricks.sliding_window_view(bits, length)
    return (windows @ (1 << np.arange(length, dtype=np.int64))) | (1 << length)


def bit_factors(bits: np.ndarray) -> np.ndarray:
    """The distinct runs of MIN_QUERY_TERMS .. LONGEST_FACTOR bits."""
    if bits.size and (bits.min() < 0 or bits.max() > 1):
        # Not a bit sequence: nothing a 0/1 query could match.
        return np.empty(0, dtype=np.int64)
    found = [
        np.unique(bit_runs(bits, length))
        for length in range(MIN_QUERY_TERMS, min(LONGEST_FACTOR, bits.size) + 1)
    ]
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


def entry_grams(sequences: dict[str, np.ndarray]) -> dict[int, np.ndarray]:
    """kind -> distinct grams, for an entry's sequences by name."""
    out: dict[int, np.ndarray] = {}
    for name, terms in sequences.items():
        found = grams(name, terms)
        if found is not None and found[1].size:
            out[found[0]] = found[1]
    for name, terms in sequences.items():
        code = KINDS.get(name)
        if code is not None and len(terms) >= MIN_QUERY_TERMS:
            starts = start_grams(np.asarray(terms[:LONGEST_FACTOR]), code)
            if starts.size:
                out[START + code] = starts
    return out


def start_grams(terms: np.ndarray, code: int) -> np.ndarray:
    """The grams of a sequence's start (index kind START + code): the hash
    of its first 3 terms; for bits, each of its first 3 to 15 bits."""
    if code != KINDS["bits"]:
        return gram_hash(terms[np.newaxis, :GRAM])
    if terms.min() < 0 or terms.max() > 1:
        return np.empty(0, dtype=np.int64)
    top = min(LONGEST_FACTOR, len(terms))
    return np.array(
        [
            bit_runs(terms[:length], length)[0]
            for length in range(MIN_QUERY_TERMS, top + 1)
        ]
    )


# -- posting lists ---------------------------------------------------------


def pack(entries: np.ndarray) -> bytes:
    """Ascending entry numbers as LEB128 deltas (the first as itself)."""
    values = np.diff(np.asarray(entries, dtype=np.int64), prepend=0)
    return _varints(values.astype(np.uint64)).tobytes()


def _sizes(values: np.ndarray) -> np.ndarray:
    """The bytes of each value's LEB128 varint (values < 2^35, uint64)."""
    sizes = np.ones(len(values), dtype=np.int64)
    for bits in (7, 14, 21, 28):
        sizes += values >= np.uint64(1 << bits)
    return sizes


def _varints(values: np.ndarray) -> np.ndarray:
    """LEB128 bytes of each value (< 2^35, uint64), one after another."""
    sizes = _sizes(values)
    out = np.empty(int(sizes.sum()), dtype=np.uint8)
    starts = np.cumsum(sizes) - sizes
    for j in range(5):
        has = sizes > j
        byte = (values[has] >> np.uint64(7 * j)) & np.uint64(0x7F)
        more = (sizes[has] > j + 1).astype(np.uint64) << np.uint64(7)
        out[starts[has] + j] = (byte | more).astype(np.uint8)
    return out


def unpack(blob: bytes) -> np.ndarray:
    """The entry numbers of a posting list (:func:`pack`'s inverse)."""
    return np.cumsum(_values(np.frombuffer(blob, dtype=np.uint8)))


def _values(data: np.ndarray) -> np.ndarray:
    """The values of consecutive LEB128 varints."""
    if not data.size:
        return np.empty(0, dtype=np.int64)
    last = data < 0x80
    starts = np.flatnonzero(np.r_[True, last[:-1]])
    place = np.arange(data.size) - np.repeat(starts, np.diff(np.r_[starts, data.size]))
    parts = (data & 0x7F).astype(np.int64) << (7 * place)
    return np.add.reduceat(parts, starts)


def _posting_rows(
    segment: int, kinds: np.ndarray, grams_: np.ndarray, entries: np.ndarray
) -> list[tuple[int, int, int, bytes]]:
    """The rows ``(segment, kind, gram, entries)`` of a segment from its
    (kind, gram, entry) triples."""
    order = np.lexsort((entries, grams_, kinds))
    kinds, grams_, entries = kinds[order], grams_[order], entries[order]
    new = np.r_[True, (kinds[1:] != kinds[:-1]) | (grams_[1:] != grams_[:-1])]
    repeated = np.r_[False, ~new[1:] & (entries[1:] == entries[:-1])]
    keep = ~repeated
    kinds, grams_, entries, new = kinds[keep], grams_[keep], entries[keep], new[keep]
    deltas = np.where(new, entries, np.diff(entries, prepend=0)).astype(np.uint64)
    data = _varints(deltas).tobytes()
    sizes = _sizes(deltas)
    ends = np.cumsum(sizes)
    firsts = np.flatnonzero(new)
    lasts = np.r_[firsts[1:], len(deltas)] - 1
    begins = (ends - sizes)[firsts]
    return [
        (segment, k, g, data[b:e])
        for k, g, b, e in zip(
            kinds[firsts].tolist(),
            grams_[firsts].tolist(),
            begins.tolist(),
            ends[lasts].tolist(),
            strict=True,
        )
    ]


def level_of(entries: int) -> int:
    """The level of a segment of ``entries`` entries: log base FANOUT."""
    return (max(1, entries).bit_length() - 1) // (FANOUT.bit_length() - 1)


def index_sequences(
    session: Session, entry_id: int, sequences: dict[str, np.ndarray]
) -> None:
    """Index one entry's ``sequences`` (see :func:`index_entries`), or keep
    them for the end of the batch when its connection is in one
    (:func:`index_later`)."""
    pending = session.connection().info.get(_LATER)
    if pending is None:
        index_entries(session, {entry_id: sequences})
    else:
        pending[entry_id] = {
            name: np.asarray(terms[:INDEXED_TERMS]) for name, terms in sequences.items()
        }


#: The key of a connection's pending entries (``Connection.info``).
_LATER = "wythoff.search.later"


@contextmanager
def index_later(connection: Connection) -> Iterator[None]:
    """Within this block, the entries indexed on ``connection`` are indexed
    together at its end, as one segment, in the same transaction (a batch of
    fills: one segment, not one per entry and their merges)."""
    pending: dict[int, dict[str, np.ndarray]] = {}
    connection.info[_LATER] = pending
    try:
        yield
        del connection.info[_LATER]
        if pending:
            index_entries(connection, pending)
    finally:
        connection.info.pop(_LATER, None)


def forget_later(connection: Connection, entry_id: int) -> None:
    """Drop the entry's pending sequences from the batch's index (its
    writes were rolled back to a savepoint)."""
    pending = connection.info.get(_LATER)
    if pending is not None:
        pending.pop(entry_id, None)


def index_entries(session: Writer, sequences: dict[int, dict[str, np.ndarray]]) -> None:
    """Index the sequences (name -> terms) of each entry: one new segment
    for all of them, then the merges it makes due (:func:`merge`).

    An entry indexed before keeps its older postings until a merge or
    ``wythoff db reindex``: a search checks every candidate against the
    stored terms, so an older posting can only add a candidate, never a
    match, and the new postings hold every gram of the new terms."""
    triples = [
        (kind, found, entry_id)
        for entry_id, named in sequences.items()
        for kind, found in entry_grams(named).items()
    ]
    if not triples:
        return
    kinds = np.concatenate([np.full(len(g), k) for k, g, _ in triples])
    grams_ = np.concatenate([g for _, g, _ in triples])
    entries = np.concatenate([np.full(len(g), e) for _, g, e in triples])
    _write_segment(session, len(sequences), kinds, grams_, entries)
    merge(session)


def _write_segment(
    session: Writer,
    count: int,
    kinds: np.ndarray,
    grams_: np.ndarray,
    entries: np.ndarray,
) -> None:
    segment = session.execute(
        insert(search_segments)
        .values(entries=count, level=level_of(count))
        .returning(search_segments.c.id)
    ).scalar_one()
    rows = _posting_rows(segment, kinds, grams_, entries)
    connection = session.connection() if isinstance(session, Session) else session
    if connection.dialect.name == "postgresql":
        # COPY: psycopg's executemany sends one statement per row.
        raw = connection.connection.driver_connection
        assert raw is not None
        with raw.cursor() as cursor, cursor.copy(_COPY) as copy:
            for row in rows:
                copy.write_row(row)
    else:
        # The driver's executemany: SQLAlchemy's per-row parameter handling
        # cost four times the insert itself.
        connection.exec_driver_sql(
            "INSERT INTO search_postings (segment, kind, gram, entries) "
            "VALUES (?, ?, ?, ?)",
            rows,
        )


_COPY_COLUMNS = ("segment", "kind", "gram", "entries")
_COPY = f"COPY search_postings ({', '.join(_COPY_COLUMNS)}) FROM STDIN"


def merge(session: Writer) -> int:
    """Merge the segments of each level that has FANOUT of them into one of
    the next level (lowest first, until no level has); return the merges.
    On PostgreSQL one merger at a time (a transaction's advisory lock,
    tried, never waited for): a writer that finds it taken leaves the
    merging to the next write."""
    connection = session.connection() if isinstance(session, Session) else session
    if connection.dialect.name == "postgresql" and not session.scalar(
        text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": _MERGE_LOCK}
    ):
        return 0
    merges = 0
    while True:
        levels: dict[int, list[int]] = {}
        for segment, level in session.execute(
            select(search_segments.c.id, search_segments.c.level).order_by(
                search_segments.c.id
            )
        ):
            levels.setdefault(level, []).append(segment)
        due = [ids for _, ids in sorted(levels.items()) if len(ids) >= FANOUT]
        if not due:
            return merges
        _merge(session, due[0])
        merges += 1


#: The advisory lock of the mergers (PostgreSQL): "wythoff-merge".
_MERGE_LOCK = 0x57594D45
#: The advisory lock of :func:`vacuum` (PostgreSQL): "wythoff-vacuum".
_VACUUM_LOCK = 0x57595641


def vacuum(engine: Engine) -> bool:
    """On PostgreSQL, VACUUM the index's tables, so that the rows merges
    leave dead are reused by the next segments (whether the server's
    autovacuum is on or not): each merge rewrites its segments' rows, and
    a catalog built without vacuuming kept about eight times the live
    postings' bytes. One process at a time (an advisory lock, tried);
    False if it did not run. Nothing on SQLite, which reuses its free
    pages by itself."""
    if engine.dialect.name != "postgresql":
        return False
    with engine.connect() as connection:
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        locked = connection.scalar(
            text("SELECT pg_try_advisory_lock(:key)"), {"key": _VACUUM_LOCK}
        )
        if not locked:
            return False
        try:
            connection.exec_driver_sql("VACUUM search_postings, search_segments")
        finally:
            connection.execute(
                text("SELECT pg_advisory_unlock(:key)"), {"key": _VACUUM_LOCK}
            )
    return True


def _merge(session: Writer, segments: list[int]) -> None:
    """Replace ``segments`` by one holding the union of their postings."""
    rows = session.execute(
        select(
            search_postings.c.kind, search_postings.c.gram, search_postings.c.entries
        ).where(search_postings.c.segment.in_(segments))
    ).all()
    entries, of_row = _unpack_flat([row[2] for row in rows])
    kinds = np.array([row[0] for row in rows], dtype=np.int64)[of_row]
    grams_ = np.array([row[1] for row in rows], dtype=np.int64)[of_row]
    session.execute(
        delete(search_postings).where(search_postings.c.segment.in_(segments))
    )
    session.execute(delete(search_segments).where(search_segments.c.id.in_(segments)))
    count = len(np.unique(entries))
    if count:
        _write_segment(session, count, kinds, grams_, entries)


def _unpack_flat(blobs: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The entries of every blob, one after another, and the blob each
    comes from: :func:`unpack` of each, decoded in one pass."""
    if not blobs:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    data = np.frombuffer(b"".join(blobs), dtype=np.uint8)
    totals = np.cumsum(_values(data))
    # Each blob's values: a varint ends at each byte < 0x80.
    starts = np.cumsum([0, *map(len, blobs[:-1])])
    counts = np.add.reduceat((data < 0x80).astype(np.int64), starts)
    of_blob = np.repeat(np.arange(len(blobs)), counts)
    ends = np.cumsum(counts)
    # The deltas restart at each blob: take off the sum of those before.
    before = np.r_[0, totals[ends[:-1] - 1]]
    return totals - before[of_blob], of_blob


def _unpack_many(blobs: list[bytes]) -> list[np.ndarray]:
    """:func:`unpack` of each blob."""
    if not blobs:
        return []
    entries, of_blob = _unpack_flat(blobs)
    return np.split(entries, np.cumsum(np.bincount(of_blob, minlength=len(blobs)))[:-1])


def clear(session: Writer) -> None:
    """Empty the index (before a rebuild)."""
    session.execute(delete(search_postings))
    session.execute(delete(search_segments))


def rebuild(
    session: Writer, sequences: Iterator[tuple[int, dict[str, np.ndarray]]]
) -> int:
    """Rebuild the index from ``(entry, sequences)`` in entry order, a segment
    of REBUILD_BATCH entries at a time; return the entries indexed."""
    clear(session)
    done = 0
    batch: dict[int, dict[str, np.ndarray]] = {}
    for entry_id, named in sequences:
        batch[entry_id] = named
        if len(batch) == REBUILD_BATCH:
            index_entries(session, batch)
            done, batch = done + len(batch), {}
    if batch:
        index_entries(session, batch)
    return done + len(batch)


#: Entries a rebuild indexes together (a level-5 segment).
REBUILD_BATCH = 1024


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
    in entry order (:func:`candidates`) and checks each against the stored
    terms, until ``offset + limit + 1`` matches are known.
    """
    if "words" in query:
        return _search_words(session, query["words"], offset, limit)
    want = np.asarray(query["terms"], dtype=np.int64)
    wanted = offset + limit + 1
    codes = [c for c in NAMES if c != KINDS["bits"] or want.max() <= 1]
    scans = {c: _Scan(session, c, want) for c in codes}
    found: list[dict[str, Any]] = []
    for at_start in (True, False):
        for code in codes:
            if len(found) >= wanted:
                break
            found += scans[code].matches(at_start, wanted - len(found))
    return found[offset : offset + limit], len(found) > offset + limit


#: The posting lists of some grams of one kind, in every segment.
#: The segments named in the query: every (segment, kind, gram) is then one
#: seek of the primary key on both databases (a join left PostgreSQL's
#: planner a scan of the whole table).
_POSTINGS = select(search_postings.c.gram, search_postings.c.entries).where(
    search_postings.c.segment.in_(bindparam("segments", expanding=True)),
    search_postings.c.kind == bindparam("kind"),
    search_postings.c.gram.in_(bindparam("grams", expanding=True)),
)
_SEGMENTS = select(search_segments.c.id)


def postings(session: Reader, kind: int, wanted: list[int]) -> dict[int, np.ndarray]:
    """gram -> the entries (ascending) whose sequence of ``kind`` holds it,
    over every segment; grams nobody holds are left out."""
    segments = session.execute(_SEGMENTS).scalars().all()
    if not segments:
        return {}
    params = {"segments": segments, "kind": kind, "grams": wanted}
    rows = session.execute(_POSTINGS, params).all()
    entries, of_row = _unpack_flat([row[1] for row in rows])
    grams_ = np.array([row[0] for row in rows], dtype=np.int64)[of_row]
    order = np.lexsort((entries, grams_))
    grams_, entries = grams_[order], entries[order]
    held = {}
    for gram in np.unique(grams_).tolist():
        lo, hi = np.searchsorted(grams_, [gram, gram + 1])
        held[gram] = np.unique(entries[lo:hi])
    return held


def _query_grams(want: np.ndarray, code: int) -> tuple[int, list[int]]:
    """The index kind and the grams (at most READ_GRAMS, spread over the
    query) that every sequence of ``code`` holding ``want`` holds."""
    if code == KINDS["bits"]:
        kind, length = BIT_FACTORS, min(len(want), LONGEST_FACTOR)
        found = bit_runs(want, length)
    else:
        kind, found = (
            code,
            gram_hash(np.lib.stride_tricks.sliding_window_view(want, GRAM)),
        )
    count = len(found)
    spread = {round(i * (count - 1) / (READ_GRAMS - 1)) for i in range(READ_GRAMS)}
    return kind, sorted({int(found[j]) for j in spread})


def candidates(session: Reader, want: np.ndarray, code: int) -> np.ndarray:
    """The entries (ascending) whose sequence ``code`` holds every gram of
    :func:`_query_grams`: each one that holds ``want`` among them."""
    kind, wanted = _query_grams(want, code)
    held = postings(session, kind, wanted)
    if len(held) < len(wanted):
        return np.empty(0, dtype=np.int64)
    lists = sorted(held.values(), key=len)
    found = lists[0]
    for more in lists[1:]:
        found = np.intersect1d(found, more, assume_unique=True)
    return found


class _Scan:
    """The matches in one sequence, checked against the stored terms in
    entry order as far as asked: those whose first match is at place 0
    (``at_start``: candidates from the start grams) and the others (every
    candidate: :func:`candidates`)."""

    def __init__(self, session: Reader, code: int, want: np.ndarray) -> None:
        self.session = session
        self.code = code
        self.want = want
        self.found: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
        # Candidates not checked yet, for each list.
        self.pending: dict[bool, list[int] | None] = {True: None, False: None}

    def _candidates(self, at_start: bool) -> list[int]:
        if not at_start:
            return candidates(self.session, self.want, self.code).tolist()
        head = self.want[: min(len(self.want), LONGEST_FACTOR)]
        grams_ = start_grams(head, self.code).tolist()
        if not grams_:  # not bits: no sequence of bits starts so
            return []
        held = postings(self.session, START + self.code, grams_[-1:])
        return held.get(grams_[-1], np.empty(0, dtype=np.int64)).tolist()

    def matches(self, at_start: bool, wanted: int) -> list[dict[str, Any]]:
        """The first ``wanted`` matches of the kind asked (fewer if there
        are no more)."""
        pending = self.pending[at_start]
        if pending is None:
            pending = self.pending[at_start] = self._candidates(at_start)
        have = self.found[at_start]
        take = wanted - len(have) + 4
        while len(have) < wanted and pending:
            # Check no more candidates than the list still needs (most are
            # real matches): reading and decoding stored terms is the costly
            # part. When few of them are matches of this list, check more at
            # a time.
            checked = pending[:take]
            del pending[:take]
            good = 0
            for match in _confirmed(self.session, checked, self.want, self.code):
                if match.pop("start") == at_start:
                    have.append(match)
                    good += 1
            if 2 * good < len(checked):
                take = min(2 * take, 1000)
        return have[:wanted]


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
        func.substr(SequenceRow.data, 1, bindparam("head"), type_=LargeBinary),
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
    rows = session.execute(
        _HEADS, {"entries": entries, "name": name, "head": _HEAD_BYTES}
    ).all()
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
