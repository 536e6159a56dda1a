"""Cross-references and their classes on both databases: ``xref_class`` is
the least number among an entry and the entries it cross-references,
checked against that definition after every fill, and an entry joins its
class in a fixed number of statements however large the class is."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import event, select

from catalog import service
from catalog.compute.adjoinable import adjoinable
from catalog.config import Settings
from catalog.store import repository as repo
from catalog.store.ids import format_id
from catalog.store.models import Facts

N = 150  # at least the 100 columns a cross-reference needs


def equal_games(count: int) -> list[str]:
    """Wythoff's Nim with an adjoinable pair of moves added: different
    games, the same P-positions (Duchêne et al.)."""
    found = []
    for j in range(2, 100):
        for i in range(1, j):
            if adjoinable(i, j).adjoinable:
                moves = [[i, j], [j, i]]
                found.append({"rays": [[1, 0], [0, 1], [1, 1]], "moves": moves})
                if len(found) == count:
                    return [json.dumps(d) for d in found]
    raise AssertionError("not enough adjoinable moves")


OTHERS = [
    {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]},  # Maharaja
    {"rays": [[1, 0], [0, 1]]},  # Nim
]


@pytest.fixture
def store(migrated_url):
    store = service.Store(Settings.load(migrated_url))
    yield store
    store.dispose()


def classes(store) -> dict[int, int | None]:
    with store.sessions() as session:
        return dict(session.execute(select(Facts.entry_id, Facts.xref_class)).all())


def check_classes(store) -> None:
    """Every computed entry's class is the least of itself and its xrefs."""
    found = classes(store)
    with store.sessions() as session:
        for number, least in found.items():
            expected = min([number, *repo.xref_ids(session, number)])
            assert least == expected, format_id(number)


def add(store, definitions: list[str]) -> list[str]:
    return [service.add(store, d)["id"] for d in definitions]


def test_classes_in_any_order(store):
    equal = add(store, equal_games(9))
    others = add(store, [json.dumps(d) for d in OTHERS])
    order = equal + others
    random.Random(15).shuffle(order)  # higher numbers first, sometimes
    for wid in order:
        service.compute(store, wid, N)
        check_classes(store)
    numbers = [int(w[1:]) for w in equal]
    found = classes(store)
    assert {found[n] for n in numbers} == {min(numbers)}
    with store.sessions() as session:
        for n in numbers:
            assert repo.xref_ids(session, n) == sorted(set(numbers) - {n})
        for wid in others:
            assert found[int(wid[1:])] == int(wid[1:])
            assert repo.xref_ids(session, int(wid[1:])) == []


def test_class_after_its_least_member_leaves(store):
    equal = add(store, equal_games(4))
    for wid in equal:
        service.compute(store, wid, N)
    numbers = sorted(int(w[1:]) for w in equal)
    with store.sessions.begin() as session:
        repo.clear_results(session, repo.get_entry(session, numbers[0]))
    check_classes(store)
    found = classes(store)
    assert numbers[0] not in found
    assert {found[n] for n in numbers[1:]} == {numbers[1]}
    service.compute(store, equal[0], N)  # back again: the class is its
    check_classes(store)
    assert set(classes(store).values()) == {numbers[0]}


def test_joining_a_class_takes_the_same_statements_at_any_size(store):
    equal = add(store, equal_games(10))
    statements: list[str] = []

    def note(_conn, _cursor, statement, *_args):
        if "xrefs" in statement or "facts" in statement:
            statements.append(statement)

    counts = []
    event.listen(store.engine, "before_cursor_execute", note)
    try:
        for wid in equal:
            statements.clear()
            service.compute(store, wid, N)
            counts.append(len(statements))
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
    # The first joins no class and the second starts one; from the third on,
    # a class of 2, 3, ... 9 members costs each newcomer the same.
    assert len(set(counts[2:])) == 1, counts
    check_classes(store)
