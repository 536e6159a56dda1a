"""A whole catalog into another database: ``wythoff db copy --to URL``.

Every table of the catalog is copied row by row with its keys (the same
W-numbers, labels, chunks, sequences, search index, invariants), from any
database to any other (PostgreSQL to a SQLite snapshot and back), in
batches of :data:`BATCH` rows, each batch one transaction that inserts
what the target lacks (``ON CONFLICT DO NOTHING``). So a copy is
idempotent, and one that was interrupted (Ctrl-C, kill -9, a lost
connection) completes when run again: a table whose rows are all there
is skipped, the others continue. Extents, which say how far an entry's
chunks reach, come last, so an entry's positions are visible in the
target only once all its chunks are.

A target may be empty, or a copy (whole or partial) of the same catalog;
one whose entries, games or alterations differ from the source's under
the same numbers holds another catalog and is refused before anything is
written. After the copy every table's rows are counted on both sides and
every chunk read back from the target is checked against its checksum.

Not copied: the queue (``jobs``: its jobs belong to the source's workers)
and the cache of pure results (``results``: any server computes it again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, Table, func, select, text
from sqlalchemy.dialects import postgresql, sqlite

from catalog.errors import BadInput, StoreCorrupt
from catalog.store import chunks as codec
from catalog.store.db import safe_url
from catalog.store.tables import (
    alterations,
    bitstrings,
    entries,
    entry_keywords,
    extents,
    facts,
    games,
    invariants,
    labels,
    p_chunks,
    search_postings,
    search_segments,
    sequences,
    window_prints,
    xref_links,
)

#: The tables copied, parents before children and extents last.
TABLES: tuple[Table, ...] = (
    alterations,
    games,
    entries,
    labels,
    entry_keywords,
    facts,
    sequences,
    bitstrings,
    p_chunks,
    search_segments,
    search_postings,
    window_prints,
    xref_links,
    invariants,
    extents,
)
#: Rows per transaction of the target.
BATCH = 5000


@dataclass
class Report:
    """What a copy did: rows copied and rows there in the end, per table."""

    copied: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    chunks_checked: int = 0
    bytes: int = 0


def count(connection: Connection, table: Table) -> int:
    return connection.execute(select(func.count()).select_from(table)).scalar() or 0


def rows(engine: Engine) -> int:
    """The rows a copy of the catalog at ``engine`` writes (for a progress bar)."""
    with engine.connect() as connection:
        return sum(count(connection, t) for t in TABLES)


def check_same_catalog(source: Connection, target: Connection, shown: str) -> None:
    """:class:`BadInput` unless every entry, game and alteration of the target
    is the source's under the same number."""
    kinds = ((alterations, "alteration"), (games, "rule set"), (entries, "entry"))
    for table, what in kinds:
        theirs = {i: k for i, k in target.execute(select(table.c.id, table.c.key))}
        if not theirs:
            continue
        ours = {i: k for i, k in source.execute(select(table.c.id, table.c.key))}
        for number, key in sorted(theirs.items()):
            if ours.get(number) != key:
                name = f"W{number:06d}" if table is entries else f"{what} {number}"
                raise BadInput(
                    f"{shown} holds another catalog: its {name} is not this "
                    "catalog's; copy into an empty database or a copy of this one"
                )


def _insert(connection: Connection) -> Any:
    if connection.dialect.name == "postgresql":
        return postgresql.insert
    return sqlite.insert


def copy(
    source: Engine,
    target: Engine,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Copy the catalog at ``source`` into ``target`` (both migrated)."""
    shown = safe_url(target.url)
    report = Report()
    with source.connect() as reading, target.connect() as writing:
        check_same_catalog(reading, writing, shown)
        writing.rollback()
        totals = {t.name: count(reading, t) for t in TABLES}
        reading.rollback()
    for table in TABLES:
        report.copied[table.name] = _copy_table(
            source, target, table, totals[table.name], progress
        )
    with target.begin() as writing:
        _restart_sequences(writing)
        _drop_merged(source, writing)
    _check(source, target, report)
    return report


def _copy_table(
    source: Engine,
    target: Engine,
    table: Table,
    total: int,
    progress: Callable[[int], None] | None,
) -> int:
    """The rows of ``table`` the target lacked, copied in batches."""
    with target.connect() as writing:
        there = count(writing, table)
    if there >= total:
        if progress:
            progress(total)
        return 0
    key = list(table.primary_key.columns)
    with (
        source.connect() as reading,
        reading.execution_options(stream_results=True, yield_per=BATCH).execute(
            select(table).order_by(*key)
        ) as rows,
    ):
        for batch in rows.partitions(BATCH):
            values = [dict(row._mapping) for row in batch]
            with target.begin() as writing:
                writing.execute(
                    _insert(writing)(table).on_conflict_do_nothing(), values
                )
            if progress:
                progress(len(values))
    with target.connect() as writing:
        return count(writing, table) - there


def _restart_sequences(connection: Connection) -> None:
    """PostgreSQL's serial numbers continue after the copied ones."""
    if connection.dialect.name != "postgresql":
        return
    for table in (alterations, games, search_segments):
        connection.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"coalesce(max(id), 1), max(id) IS NOT NULL) FROM {table.name}"
            )
        )


def _drop_merged(source: Engine, writing: Connection) -> None:
    """Drop the target's search segments that the source no longer has (it
    merged them since an earlier copy): their postings are in the merged
    segment copied now."""
    with source.connect() as reading:
        ours = set(reading.scalars(select(search_segments.c.id)))
    gone = set(writing.scalars(select(search_segments.c.id))) - ours
    if gone:
        writing.execute(
            search_postings.delete().where(search_postings.c.segment.in_(gone))
        )
        writing.execute(search_segments.delete().where(search_segments.c.id.in_(gone)))


def _check(source: Engine, target: Engine, report: Report) -> None:
    """Counts on both sides, and every chunk of the target against its
    checksum: :class:`StoreCorrupt` naming what differs."""
    shown = safe_url(target.url)
    with source.connect() as reading, target.connect() as writing:
        for table in TABLES:
            ours, theirs = count(reading, table), count(writing, table)
            report.rows[table.name] = theirs
            if ours != theirs:
                raise StoreCorrupt(
                    f"{shown}: {table.name} holds {theirs} rows after the copy, "
                    f"the source {ours}; the target is not a copy of this catalog"
                )
        query = select(
            p_chunks.c.entry_id,
            p_chunks.c.x0,
            p_chunks.c.encoding,
            p_chunks.c.data,
            p_chunks.c.count,
            p_chunks.c.checksum,
        )
        streaming = writing.execution_options(stream_results=True, yield_per=256)
        with streaming.execute(query) as stored:
            for entry_id, x0, encoding, data, size, checksum in stored:
                positions = codec.decode_positions(encoding, data, size)
                if codec.checksum(positions) != checksum:
                    raise StoreCorrupt(
                        f"{shown}: the chunk of W{entry_id:06d} at x = {x0} does "
                        "not match its checksum after the copy"
                    )
                report.chunks_checked += 1
                report.bytes += len(data)
