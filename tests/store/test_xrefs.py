"""Cross-references and their classes on both databases: ``xref_class`` is
the least number among an entry and the entries it cross-references,
checked against that definition after every fill, and an entry joins its
class in a fixed number of statements however large the class is."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from sqlalchemy import event, func, select

from catalog import service
from catalog.compute.adjoinable import adjoinable
from catalog.config import Settings
from catalog.store import chunks
from catalog.store import repository as repo
from catalog.store.ids import format_id
from catalog.store.models import Facts
from catalog.store.models import Sequence as SequenceRow
from catalog.store.tables import xref_links

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
        have_y = set(
            session.scalars(select(SequenceRow.entry_id).where(SequenceRow.name == "y"))
        )
        for number, least in found.items():
            expected = min([number, *repo.xref_ids(session, number)])
            if number not in have_y:  # not one P-position a column
                expected = None
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


def stored_columns(store) -> dict[int, np.ndarray]:
    with store.sessions() as session:
        return {
            number: chunks.decode_ints(encoding, data)
            for number, encoding, data in session.execute(
                select(
                    SequenceRow.entry_id, SequenceRow.encoding, SequenceRow.data
                ).where(SequenceRow.name == "y")
            )
        }


def check_against_pairs(store) -> None:
    """xref_ids against its definition, pair by pair: two entries refer to
    each other when their stored y(x) agree on their common length, of at
    least 100 terms."""
    columns = stored_columns(store)
    with store.sessions() as session:
        for number, mine in columns.items():
            expected = [
                other
                for other, theirs in sorted(columns.items())
                if other != number
                and min(len(mine), len(theirs)) >= 100
                and np.array_equal(mine[: len(theirs)], theirs[: len(mine)])
            ]
            assert repo.xref_ids(session, number) == expected, format_id(number)
    check_classes(store)


def test_entries_of_other_lengths_against_every_pair(store):
    """Equal games filled to different bounds (each a group of its own,
    linked to the others), games that agree with them on a start only, a
    game filled further (it moves to another group) and a game cleared: the
    cross-references are exactly the pairs whose y(x) agree."""
    equal = add(store, equal_games(6))
    others = add(store, [json.dumps(d) for d in OTHERS])
    # Wythoff's P-position (120, 74) forced N: the same y(x) for 120 columns.
    late = {"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"N": [[120, 74]]}}
    box = add(store, [json.dumps(late)])
    games = equal + others + box  # 9: each bound two or three times
    order = list(zip(games, [N, 2 * N, N, 3 * N] * 3, strict=False))
    random.Random(7).shuffle(order)
    for wid, n in order:
        service.compute(store, wid, n)
        check_against_pairs(store)
    service.compute(store, equal[0], 4 * N)  # longer: its group changes
    check_against_pairs(store)
    with store.sessions.begin() as session:
        repo.clear_results(session, repo.get_entry(session, int(equal[1][1:])))
    check_against_pairs(store)
    with store.sessions() as session:  # the pairs took one link a pair of groups
        links = session.execute(select(func.count()).select_from(xref_links)).scalar()
        groups = session.execute(
            select(Facts.y_length, Facts.y_digest)
            .where(Facts.y_head.is_not(None))
            .distinct()
        ).all()
    assert links <= len(groups) * (len(groups) - 1) // 2
