"""The search index's pieces: posting lists, segments and their merges, on
both databases, against plain sets."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select, text

from catalog.store import search
from catalog.store.db import make_engine, make_sessionmaker
from catalog.store.tables import search_postings, search_segments
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated

numbers = st.lists(st.integers(0, 2**31 - 1), unique=True).map(sorted)


@given(numbers)
def test_a_posting_list_packs_and_unpacks(entries):
    blob = search.pack(np.array(entries, dtype=np.int64))
    assert search.unpack(blob).tolist() == entries
    # One byte for each delta under 128, five at most.
    deltas = np.diff(entries, prepend=0)
    assert len(blob) == sum(
        1 + sum(d >= 1 << b for b in (7, 14, 21, 28)) for d in deltas
    )


@given(st.lists(numbers.filter(bool), max_size=8))
def test_many_lists_unpack_in_one_pass_as_each_alone(lists):
    blobs = [search.pack(np.array(x, dtype=np.int64)) for x in lists]
    assert [x.tolist() for x in search._unpack_many(blobs)] == lists


@pytest.mark.parametrize("scale", [1000, 1, 2**26])
def test_a_segments_rows_hold_each_triple_once(scale):
    """Entries spread so that the deltas take one to five bytes, across
    each size's bounds (a multiple of 1000; every number; up to 2^34)."""
    rng = np.random.default_rng(7)
    kinds = rng.integers(1, 4, 5000)
    grams = rng.integers(-50, 50, 5000)
    entries = rng.integers(0, 300, 5000) * scale
    rows = search._posting_rows(9, kinds, grams, entries)
    found = [
        (kind, gram, int(e))
        for _, kind, gram, blob in rows
        for e in search.unpack(blob)
    ]
    assert len(found) == len(set(found))
    assert set(found) == set(
        zip(kinds.tolist(), grams.tolist(), entries.tolist(), strict=True)
    )
    assert {row[0] for row in rows} == {9}
    assert len(rows) == len({(k, g) for k, g, _ in found})


def test_an_entry_is_indexed_by_its_searched_sequences_that_have_grams():
    """A sequence of a name the index does not search adds nothing, and one
    too short for a gram adds no kind of its own (not an empty one)."""
    found = search.entry_grams(
        {"y": np.array([1, 2]), "x": np.arange(10), "a": np.arange(5)}
    )
    a = search.KINDS["a"]
    assert set(found) == {a, search.START + a}
    assert len(found[a]) == 3  # the grams of 0 1 2, 1 2 3, 2 3 4
    assert len(found[search.START + a]) == 1


@pytest.mark.parametrize(
    ("entries", "level"), [(0, 0), (1, 0), (7, 0), (8, 1), (63, 1), (64, 2), (1024, 3)]
)
def test_the_level_of_a_segment(entries, level):
    assert search.level_of(entries) == level


@pytest.fixture(params=BACKENDS)
def maker(request, tmp_path):
    engine = make_engine(new_database_url(request.param, request, tmp_path, migrated))
    yield make_sessionmaker(engine)
    engine.dispose()


def triples(session) -> set[tuple[int, int, int]]:
    rows = session.execute(
        select(
            search_postings.c.kind, search_postings.c.gram, search_postings.c.entries
        )
    ).all()
    lists = search._unpack_many([blob for _, _, blob in rows])
    return {
        (k, g, e)
        for (k, g, _), found in zip(rows, lists, strict=True)
        for e in found.tolist()
    }


def expected(sequences: dict[int, dict[str, np.ndarray]]) -> set[tuple[int, int, int]]:
    return {
        (kind, int(g), entry)
        for entry, named in sequences.items()
        for kind, found in search.entry_grams(named).items()
        for g in found
    }


def random_sequences(rng: random.Random) -> dict[str, np.ndarray]:
    """Sequences of few distinct terms (grams shared between entries)."""
    length = rng.randrange(3, 140)
    return {
        "y": np.array([rng.randrange(6) for _ in range(length)]),
        "b-a": np.arange(length) + rng.randrange(3),
        "bits": np.array([rng.randrange(2) for _ in range(length)]),
    }


def test_merges_keep_every_posting_and_few_segments(maker):
    rng = random.Random(3)
    indexed: dict[int, dict[str, np.ndarray]] = {}
    want: set[tuple[int, int, int]] = set()  # expected(indexed), step by step
    for step in range(40):
        entry = rng.randrange(1, 10**6)
        indexed[entry] = random_sequences(rng)
        with maker.begin() as session:
            if step % 10 == 9:  # now and then several at once
                more = {
                    rng.randrange(1, 10**6): random_sequences(rng) for _ in range(5)
                }
                search.index_entries(session, more)
                indexed.update(more)
                want |= expected(more)
            search.index_sequences(session, entry, indexed[entry])
            want |= expected({entry: indexed[entry]})
        with maker() as session:
            assert triples(session) == want
            levels = session.execute(
                select(search_segments.c.level, func.count()).group_by(
                    search_segments.c.level
                )
            ).all()
            assert all(count < search.FANOUT for _, count in levels), levels
            segments = select(search_segments.c.id, search_segments.c.entries)
            sizes = {i: n for i, n in session.execute(segments)}
            assert sum(sizes.values()) == len(indexed)
    assert want == expected(indexed)  # no entry was drawn twice
    # Every window of every indexed sequence finds its entry among the
    # candidates, and every candidate holds all the query's grams.
    with maker() as session:
        for entry, named in list(indexed.items())[:12]:
            for name, code in (("y", 1), ("b-a", 4), ("bits", 5)):
                terms = named[name]
                start = rng.randrange(0, len(terms) - 2)
                want = terms[start : start + rng.randrange(3, 40)]
                found = search.candidates(session, want, code).tolist()
                assert entry in found
                assert found == sorted(set(found))
                kind, grams = search._query_grams(want, code)
                held = search.postings(session, kind, grams)
                for other in found:
                    assert all(other in held[g] for g in grams)


def test_an_entry_indexed_again_keeps_its_old_postings_until_a_rebuild(maker):
    old = {"y": np.array([5, 6, 7, 8]), "bits": np.array([1, 1, 1, 0])}
    new = {"y": np.array([9, 9, 9, 9]), "bits": np.array([0, 0, 0, 1])}
    with maker.begin() as session:
        search.index_sequences(session, 3, old)
        search.index_sequences(session, 3, new)
    with maker() as session:
        assert triples(session) == expected({3: old}) | expected({3: new})
    with maker.begin() as session:
        search.rebuild(session, iter([(3, new)]))
    with maker() as session:
        assert triples(session) == expected({3: new})
        assert session.scalar(select(func.count()).select_from(search_segments)) == 1


def segment_count(session) -> int:
    return session.scalar(select(func.count()).select_from(search_segments))


def test_a_batch_indexes_its_entries_at_its_end_as_one_segment(maker):
    rng = random.Random(5)
    batch = {entry: random_sequences(rng) for entry in (3, 8, 21)}
    with maker.begin() as session:
        with search.index_later(session.connection()):
            for entry, named in batch.items():
                search.index_sequences(session, entry, named)
            assert triples(session) == set()  # kept for the batch's end
        assert triples(session) == expected(batch)
        assert segment_count(session) == 1
    with maker.begin() as session:  # an empty batch writes no segment
        with search.index_later(session.connection()):
            pass
        assert segment_count(session) == 1


def test_an_entry_forgotten_in_a_batch_is_not_indexed(maker):
    """A batch's entry whose writes were rolled back (forget_later) leaves
    no posting at the batch's end; outside a batch forgetting is nothing."""
    rng = random.Random(7)
    batch = {entry: random_sequences(rng) for entry in (3, 8, 21)}
    with maker.begin() as session:
        search.forget_later(session.connection(), 8)  # no batch: nothing
        with search.index_later(session.connection()):
            for entry, named in batch.items():
                search.index_sequences(session, entry, named)
            search.forget_later(session.connection(), 8)
            search.forget_later(session.connection(), 99)  # never indexed
        del batch[8]
        assert triples(session) == expected(batch)


def test_a_rebuild_writes_a_segment_every_so_many_entries(maker, monkeypatch):
    monkeypatch.setattr(search, "REBUILD_BATCH", 2)
    rng = random.Random(6)
    batch = {entry: random_sequences(rng) for entry in (2, 4, 6, 8, 10)}
    with maker.begin() as session:
        assert search.rebuild(session, iter(batch.items())) == 5
    with maker() as session:
        assert triples(session) == expected(batch)
        sizes = session.scalars(
            select(search_segments.c.entries).order_by(search_segments.c.id)
        ).all()
        assert sizes == [2, 2, 1]


@pytest.mark.parametrize("length", [search.GRAM - 1, search.GRAM, search.GRAM + 1])
def test_a_sequence_as_long_as_a_gram_has_one(length):
    kind, found = search.grams("y", np.arange(length))
    assert kind == search.KINDS["y"]
    assert len(found) == max(0, length - search.GRAM + 1)


@pytest.fixture
def postgresql_maker(request, tmp_path):
    """SQLite has one writer at a time: only PostgreSQL has mergers to lock out."""
    url = new_database_url("postgresql", request, tmp_path, migrated)
    engine = make_engine(url)
    yield make_sessionmaker(engine)
    engine.dispose()


def test_one_merger_at_a_time_on_postgresql(postgresql_maker):
    maker = postgresql_maker
    with maker.begin() as session:
        for entry in range(1, search.FANOUT):
            search.index_sequences(session, entry, {"y": np.arange(entry, entry + 5)})
    with maker.begin() as holder:
        holder.execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": search._MERGE_LOCK}
        )
        with maker.begin() as session:
            search.index_sequences(session, 99, {"y": np.arange(5)})
            assert search.merge(session) == 0
            count = session.scalar(select(func.count()).select_from(search_segments))
            assert count == search.FANOUT  # left for a later write
    with maker.begin() as session:
        assert search.merge(session) == 1
        assert session.scalar(select(func.count()).select_from(search_segments)) == 1


def test_vacuum_runs_on_postgresql_one_process_at_a_time(postgresql_maker):
    engine = postgresql_maker.kw["bind"]
    with postgresql_maker.begin() as session:  # merges: rows left dead
        for entry in range(1, 3 * search.FANOUT):
            search.index_sequences(session, entry, {"y": np.arange(entry, entry + 5)})
    assert search.vacuum(engine)
    with engine.connect() as holder:
        holder.execute(
            text("SELECT pg_advisory_lock(:key)"), {"key": search._VACUUM_LOCK}
        )
        assert not search.vacuum(engine)  # another process is vacuuming
        holder.execute(
            text("SELECT pg_advisory_unlock(:key)"), {"key": search._VACUUM_LOCK}
        )
    assert search.vacuum(engine)
    with postgresql_maker() as session:
        assert len(triples(session)) > 0


def test_vacuum_is_nothing_on_sqlite(tmp_path, request):
    engine = make_engine(new_database_url("sqlite", request, tmp_path, migrated))
    try:
        assert not search.vacuum(engine)
    finally:
        engine.dispose()
