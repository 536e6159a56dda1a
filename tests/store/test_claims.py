"""Optimistic concurrency on an entry's extent, on both databases: a writer
that computed from a stale extent loses, and nothing it meant is written."""

import pytest

from catalog.games.definition import canonicalize
from catalog.store import repository as repo
from catalog.store.fill import ConcurrentUpdate, _claim_extent, fill

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}


@pytest.fixture
def filled(maker):
    """Wythoff's Nim stored up to x < 100: its entry number."""
    with maker.begin() as session:
        entry, _ = repo.add_entry(session, canonicalize(WYTHOFF), name="test")
        number = entry.id
    fill(maker, number, 100)
    return number


def extent_of(maker, number):
    with maker() as session:
        extent = repo.get_extent(session, number)
        return (extent.x_bound, extent.y_bound, extent.count, extent.engine)


def test_a_stale_expected_bound_loses_the_race(maker, filled):
    before = extent_of(maker, filled)
    assert before[0] == 100
    with pytest.raises(ConcurrentUpdate, match="extended by another writer"):
        with maker.begin() as session:
            # Another writer moved the extent from 50 to 100 meanwhile.
            _claim_extent(session, filled, 50, 200, None, 999, "stale")
    assert extent_of(maker, filled) == before


def test_the_current_bound_wins(maker, filled):
    with maker.begin() as session:
        _claim_extent(session, filled, 100, 200, None, 999, "fresh")
    assert extent_of(maker, filled) == (200, None, 999, "fresh")


def test_an_extent_that_vanished_loses(maker):
    with maker.begin() as session:
        entry, _ = repo.add_entry(session, canonicalize(WYTHOFF), name="test")
        number = entry.id
    with pytest.raises(ConcurrentUpdate, match="extent vanished"):
        with maker.begin() as session:
            _claim_extent(session, number, 50, 200, None, 999, "stale")
    with maker() as session:
        assert repo.get_extent(session, number) is None
