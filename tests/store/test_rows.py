"""``wythoff add`` writes its rows with Core statements
(:mod:`catalog.store.rows`): the same rows as the ORM's ``add_entry``, the
reference, on both databases."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from catalog import service
from catalog.config import Settings
from catalog.errors import BadInput
from catalog.games.definition import canonicalize
from catalog.service.store import batch
from catalog.store import labels as labelled
from catalog.store import repository as repo
from catalog.store import rows, tables
from catalog.store.ids import format_id
from catalog.store.models import Label
from catalog.store.seed import seed_dir
from tests.conftest import new_database_url
from tests.databases import migrated

SMALL = {"box": 5, "maharaja": 5, "adjoined": 6, "cell": 3}
WYTHOFF = '{"rays": [[1, 0], [0, 1], [1, 1]]}'
#: The tables that adding an entry writes, and the columns that differ
#: between two adds of the same game (the clock's).
WRITTEN = (
    tables.games,
    tables.alterations,
    tables.entries,
    tables.entry_keywords,
    tables.labels,
)
TIMES = {"created_at", "updated_at"}


@pytest.fixture
def make_store(migrated_url, family_sets, request, tmp_path):
    """Stores on empty catalogs at the schema's head (the first on
    ``migrated_url``, the others on new ones of the same backend), with the
    families narrowed to :data:`SMALL`."""
    stores = []
    backend = request.node.callspec.params["migrated_url"]

    def make():
        url = migrated_url
        if stores:
            folder = tmp_path / str(len(stores))
            folder.mkdir()
            url = new_database_url(backend, request, folder, migrated)
        store = service.Store(Settings.load(url))
        store.families = family_sets(**SMALL)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.dispose()


def orm_add(store, definition, name=None):
    """The reference: ``service.add`` as it was, with the ORM's
    ``add_entry`` and each label an ORM object."""
    game = canonicalize(json.loads(definition))
    with store.sessions.begin() as session:
        entry, created = repo.add_entry(session, game, name=name)
        if created:
            for row in store.families.label_rows(game.key):
                codes = [*row["codes"], None, None, None]
                session.add(
                    Label(
                        label=row["label"],
                        entry_id=entry.id,
                        family=row["family"],
                        rank=row["rank"],
                        parameters=row["parameters"],
                        p1=codes[0],
                        p2=codes[1],
                        p3=codes[2],
                    )
                )
        return {"id": format_id(entry.id), "created": created}


def contents(store):
    """Every row of :data:`WRITTEN`, by table, without the clock's columns."""
    with store.reading() as connection:
        return {
            table.name: sorted(
                (
                    sorted((k, v) for k, v in row._mapping.items() if k not in TIMES)
                    for row in connection.execute(select(table))
                ),
                key=repr,
            )
            for table in WRITTEN
        }


def random_definition(rng):
    """Rays, single moves and often forced cells, few enough that games,
    alterations and whole definitions repeat."""
    pool = [[1, 0], [0, 1], [1, 1], [1, 2], [2, 1], [0, 2]]
    definition = {"rays": rng.sample(pool, rng.randint(1, 3))}
    moves = [[rng.randint(0, 3), rng.randint(1, 3)] for _ in range(rng.randint(0, 2))]
    if moves:
        definition["moves"] = moves
    if rng.random() < 0.6:
        cells = rng.sample([[x, y] for x in range(4) for y in range(4)], 3)
        definition["alter"] = {"P": cells[: rng.randint(0, 3)]}
        definition["alter"]["N"] = cells[len(definition["alter"]["P"]) :]
    return definition


def definitions():
    """Seeds, family members of :data:`SMALL` (labelled), and random games
    in a shuffled order, given twice, the second time reordered."""
    found = [
        json.dumps(json.loads(path.read_text())["definition"])
        for path in sorted(seed_dir().glob("W*.json"))
    ]
    found += [
        '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 5], [5, 2]]}',
        '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}',
        '{"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"P": [[1, 1]]}}',
    ]
    rng = random.Random(42)
    found += [json.dumps(random_definition(rng)) for _ in range(60)]
    again = []
    for text in found:
        data = json.loads(text)
        again.append(json.dumps({key: data[key] for key in reversed(list(data))}))
    order = found + again
    rng.shuffle(order)
    return order


def test_core_add_writes_what_the_orm_add_writes(make_store):
    core, orm = make_store(), make_store()
    created = 0
    for number, text in enumerate(definitions()):
        name = f"game {number}" if number % 3 == 0 else None
        try:
            expected = orm_add(orm, text, name)
        except BadInput as refused:
            with pytest.raises(type(refused)):
                service.add(core, text, name)
            continue
        assert service.add(core, text, name) == expected
        created += expected["created"]
    assert created >= 50
    found, wanted = contents(core), contents(orm)
    assert found == wanted
    # Games shared by alterations, labels of members; no keywords (a user's
    # entry has none).
    assert all(found[name] for name in ("games", "alterations", "entries"))
    assert len(found["labels"]) >= 3 and found["entry_keywords"] == []
    assert len(found["games"]) < len(found["entries"])


def test_a_number_taken_meanwhile_is_tried_again(make_store, monkeypatch):
    store = make_store()
    assert service.add(store, WYTHOFF) == {"id": "W000001", "created": True}
    real = rows.next_free
    calls = []

    def stale(connection):  # another writer took number 1 after this lookup
        calls.append(connection)
        return 1 if len(calls) == 1 else real(connection)

    monkeypatch.setattr(rows, "next_free", stale)
    game = '{"rays": [[1, 0], [0, 1], [2, 3]]}'
    assert service.add(store, game) == {"id": "W000002", "created": True}
    assert len(calls) == 2
    assert service.add(store, game) == {"id": "W000002", "created": False}


def test_adding_gives_up_after_its_attempts_and_writes_nothing(make_store, monkeypatch):
    store = make_store()
    service.add(store, WYTHOFF)
    before = contents(store)
    calls = []

    def always_taken(connection):
        calls.append(connection)
        return 1

    monkeypatch.setattr(rows, "next_free", always_taken)
    with pytest.raises(RuntimeError, match="after 5 attempts"):
        service.add(store, '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 3]]}')
    assert len(calls) == rows.ATTEMPTS == 5
    assert contents(store) == before


def test_a_label_moves_to_another_entry_once(make_store):
    store = make_store()
    first = service.entry_number(store, service.add(store, WYTHOFF)["id"])
    second = service.entry_number(store, service.add(store, '{"rays": [[1, 2]]}')["id"])
    row = {"label": "x.1", "family": "x", "rank": 7, "parameters": {}, "codes": [1]}
    with store.writing() as connection:
        assert labelled.attach_labels(connection, first, [row]) == 1
        assert labelled.attach_labels(connection, first, [row]) == 0
        assert labelled.attach_labels(connection, second, [row]) == 1
        # A changed rank is written, but the label did not move.
        assert labelled.attach_labels(connection, second, [{**row, "rank": 8}]) == 0
    with store.reading() as connection:
        query = select(tables.labels).where(tables.labels.c.label == "x.1")
        found = connection.execute(query).one()
    assert (found.label, found.entry_id, found.rank, found.p1) == ("x.1", second, 8, 1)
    assert (found.p2, found.p3) == (None, None)


def test_adding_in_a_batch_commits_with_the_batch(make_store):
    store = make_store()
    game = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 3]]}'
    with pytest.raises(ZeroDivisionError), batch(store) as inside:
        assert service.add(inside, game) == {"id": "W000001", "created": True}
        assert service.add(inside, game) == {"id": "W000001", "created": False}
        1 / 0  # noqa: B018  the batch fails: nothing of it stays
    assert contents(store)["entries"] == []
    with batch(store) as inside:
        assert service.add(inside, game) == {"id": "W000001", "created": True}
    assert service.add(store, game) == {"id": "W000001", "created": False}
