"""Window prints: the digest of a window's P-positions, and their rebuild."""

from __future__ import annotations

import hashlib

import numpy as np
from sqlalchemy import func, select

from catalog import service
from catalog.config import Settings
from catalog.store import prints
from catalog.store.tables import extents, window_prints


def by_definition(positions, size):
    """BLAKE2b's first 8 bytes over the pairs with x, y < size, sorted by
    x then y, as little-endian int64: a signed integer."""
    inside = sorted((int(x), int(y)) for x, y in positions if x < size and y < size)
    raw = np.array(inside, dtype="<i8").reshape(-1, 2).tobytes()
    digest = hashlib.blake2b(raw, digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def test_a_print_is_its_definition_in_any_order():
    rng = np.random.default_rng(5)
    cells = np.unique(rng.integers(0, 40, (200, 2)), axis=0)  # shared xs and ys
    for size in (1, 2, 16, 32, 64):
        expected = by_definition(cells, size)
        for _ in range(5):
            shuffled = cells[rng.permutation(len(cells))]
            assert prints.digest(shuffled, size) == expected
    assert prints.digest(np.array([[0, 1], [2, 1]]), 4) != prints.digest(
        np.array([[0, 1], [2, 0]]), 4
    )


def test_the_printed_sizes_are_the_powers_of_two_to_4096():
    assert prints.SIZES == tuple(2**k for k in range(13))
    assert prints.sizes_within(100) == [1, 2, 4, 8, 16, 32, 64]


def test_rebuild_prints_every_stored_entry_and_counts_them(seeded_url):
    store = service.Store(Settings.load(seeded_url))
    try:
        service.compute(store, "W000005", 1)  # a window of one cell
        service.compute(store, "W000004", 300)
        service.compute(store, "W000012", 5000)  # beyond the largest print
        with store.reading() as connection:
            before = sorted(connection.execute(select(window_prints)).all())
            stored = connection.scalar(select(func.count()).select_from(extents))
        assert {row.size for row in before if row.entry_id == 5} == {1}
        with store.engine.begin() as connection:
            connection.execute(window_prints.delete())
            assert prints.rebuild(connection) == stored
        with store.reading() as connection:
            assert sorted(connection.execute(select(window_prints)).all()) == before
    finally:
        store.dispose()
