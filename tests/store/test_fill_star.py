"""Beatty games and ⋆s in the store, on both databases: fills as boxes
(widened, interrupted, continued, committed whole) equal to
``catalog.p_positions`` and the reference; the queue and its workers; a ⋆
named by an ID stored with its game written out."""

from __future__ import annotations

import numpy as np
import pytest

from catalog import p_positions, service
from catalog.compute import reference
from catalog.games.definition import canonicalize
from catalog.service import jobs
from catalog.store import repository as repo
from catalog.store.fill import ENGINES, fill
from tests.kinds import beattyref
from tests.store.test_fill_games import entry_for, stopped_after
from tests.store.test_fill_kinds import add, stored

NIM = [[1, 0], [0, 1]]
WYTHOFF = [*NIM, [1, 1]]
MAHARAJA = {"rays": WYTHOFF, "moves": [[1, 2], [2, 1]]}
GAMES = [
    {"beatty": "sqrt(2)"},
    {"star": {"beatty": "(1+sqrt(5))/2"}},
    {"star": MAHARAJA},
    {"star": {"star": {"rays": NIM}}},
    {"beatty": "sqrt(3)", "rays": [[1, 2]], "alter": {"N": [[0, 0]], "P": [[2, 1]]}},
    {"star": {"rays": WYTHOFF, "block": 1}},
    {"star": {"special": ["euclid"]}, "cones": [{"lo": [2, 1], "hi": [3, 0]}]},
]


@pytest.mark.parametrize("definition", GAMES)
def test_a_fill_stores_what_p_positions_and_the_reference_say(maker, definition):
    number = entry_for(maker, canonicalize(definition))
    fill(maker, number, 40)
    assert np.array_equal(
        stored(maker, number, 40), reference.p_positions(definition, 40)
    )
    with maker() as session:
        assert repo.get_extent(session, number).engine == ENGINES["SubtractionSweep"]
    fill(maker, number, 130)  # wider and taller: the box again, whole
    assert np.array_equal(stored(maker, number, 130), p_positions(definition, 130))
    with pytest.raises(KeyboardInterrupt):
        fill(maker, number, 190, progress=stopped_after(1))
    assert np.array_equal(stored(maker, number, 130), p_positions(definition, 130))
    with maker() as session:
        assert repo.get_extent(session, number).x_bound == 130
    fill(maker, number, 190)  # continued after the interruption
    assert np.array_equal(stored(maker, number, 190), p_positions(definition, 190))
    fill(maker, number, 100)  # already there: nothing changes
    assert np.array_equal(stored(maker, number, 190), p_positions(definition, 190))


def test_a_stored_star_of_a_beatty_game_holds_the_beatty_pairs(maker):
    number = entry_for(maker, canonicalize({"star": {"beatty": "2-sqrt(2)/2"}}))
    fill(maker, number, 500)
    expected = beattyref.pairs(beattyref.ALPHAS["2-sqrt(2)/2"], 500)
    assert set(map(tuple, stored(maker, number, 500).tolist())) == expected


def test_workers_fill_beatty_games_and_stars_from_the_queue(store):
    added = [
        add(store, {"beatty": "(1+sqrt(5))/2"}),
        add(store, {"star": {"beatty": "sqrt(2)"}}),
        add(store, {"star": "W000004"}),  # Maharaja⋆, by its ID
        add(store, {"star": {"star": "W000003"}}),  # Nim⋆⋆
    ]
    assert add(store, {"star": {"star": {"rays": NIM}}}) == added[3]
    queued = jobs.enqueue(store, added, 300)["jobs"]
    assert [j["state"] for j in queued] == ["queued"] * len(added)
    again = jobs.enqueue(store, added, 300)["jobs"]
    assert [j["id"] for j in again] == [j["id"] for j in queued]
    summary = jobs.work(store, max_idle=0)
    assert (summary["done"], summary["failed"]) == (len(added), 0)
    for wid in added:
        definition = service.show(store, wid)["definition"]
        with store.sessions() as session:
            found = repo.read_positions(session, int(wid[1:]), 0, 300, 300)
        assert np.array_equal(found, p_positions(definition, 300)), wid
    nim = service.show(store, added[3])["definition"]
    assert sorted(nim["star"]["star"]["rays"]) == sorted(NIM)  # W000003 written out
    assert np.array_equal(
        p_positions(nim, 300), np.column_stack([np.arange(300)] * 2)
    )  # Nim⋆⋆ = Nim
    assert service.verify(store, added)["ok"]
