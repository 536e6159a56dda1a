"""The new rule kinds in the store, on both databases: fills of cone,
blocking and Euclid games as boxes (widened, taller, interrupted), the
queue and its workers, exact answers far out, and what ``show`` says."""

from __future__ import annotations

import json

import numpy as np
import pytest

from catalog import p_positions, service
from catalog.compute import reference
from catalog.games.definition import canonicalize
from catalog.service import jobs
from catalog.store import repository as repo
from catalog.store.fill import fill
from tests.store.test_fill_games import entry_for, stopped_after

NIM = [[1, 0], [0, 1]]
WYTHOFF = [*NIM, [1, 1]]
GAMES = [
    {"rays": NIM, "cones": [{"lo": [1, -1], "hi": [1, 1]}]},  # 2-Wythoff
    {"rays": NIM, "cones": [{"lo": [1, 0], "hi": [2, 0], "symmetric": True}]},
    {"rays": NIM, "cones": [{"lo": [0, 1], "mod": 3}]},
    {"rays": NIM, "cones": [{"lo": [1, 1], "hi": [3, 2]}], "moves": [[1, 3]]},
    {"rays": WYTHOFF, "block": 1},
    {"rays": WYTHOFF, "moves": [[1, 2], [2, 1]], "block": 2},
    {"special": ["euclid"]},
    {"rays": [[0, 1]], "cones": [{"lo": [1, 0], "hi": [2, 0]}]},
]


def stored(maker, number, n):
    with maker() as session:
        return repo.read_positions(session, number, 0, n, n)


@pytest.mark.parametrize("definition", GAMES)
def test_a_fill_stores_what_p_positions_and_the_reference_say(maker, definition):
    number = entry_for(maker, canonicalize(definition))
    fill(maker, number, 50)
    assert np.array_equal(
        stored(maker, number, 50), reference.p_positions(definition, 50)
    )
    # Wider, then taller: the box is computed again and committed whole.
    fill(maker, number, 140)
    assert np.array_equal(stored(maker, number, 140), p_positions(definition, 140))
    with pytest.raises(KeyboardInterrupt):
        fill(maker, number, 200, progress=stopped_after(1))
    assert np.array_equal(stored(maker, number, 140), p_positions(definition, 140))
    with maker() as session:
        assert repo.get_extent(session, number).x_bound == 140
    fill(maker, number, 200)
    assert np.array_equal(stored(maker, number, 200), p_positions(definition, 200))


def add(store, definition: dict) -> str:
    return service.add(store, json.dumps(definition))["id"]


def test_workers_fill_the_new_kinds_from_the_queue(store):
    added = [
        add(store, {"rays": NIM, "cones": [{"lo": [1, -2], "hi": [1, 2]}]}),
        add(store, {"rays": WYTHOFF, "block": 1}),
        "W000026",  # Euclid's game, seeded
    ]
    queued = jobs.enqueue(store, added, 400)["jobs"]
    assert [j["state"] for j in queued] == ["queued"] * 3
    summary = jobs.work(store, max_idle=0)
    assert (summary["done"], summary["failed"]) == (3, 0)
    for wid in added:
        definition = service.show(store, wid)["definition"]
        with store.sessions() as session:
            found = repo.read_positions(session, int(wid[1:]), 0, 400, 400)
        assert np.array_equal(found, p_positions(definition, 400)), wid
    assert service.verify(store, added)["ok"]


def test_theorems_answer_far_out_and_show_names_the_paper(store):
    big = 10**299
    euclid = service.is_p(store, "W000026", big, big * 16 // 10)
    assert euclid["outcome"] == "P"  # 1.6 < φ
    move = service.is_p(store, "W000026", big, big * 17 // 10)
    assert move["outcome"] == "N" and move["move_to"] == [big, big * 7 // 10]
    three = add(store, {"rays": NIM, "cones": [{"lo": [1, -2], "hi": [1, 2]}]})
    answer = service.is_p(store, three, big, big + 1)
    assert answer["outcome"] == "N"
    x, y = answer["move_to"]
    assert service.is_p(store, three, x, y)["outcome"] == "P"
    shown = service.show(store, three)
    far = shown["invariants"]["far_out"] if "invariants" in shown else shown["far_out"]
    assert far["status"] == "theorem" and "Fraenkel" in far["source"]
