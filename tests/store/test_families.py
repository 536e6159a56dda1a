"""Families in a catalog, on both databases: deterministic IDs, labels,
filters and tables against values computed directly."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from catalog import p_positions, service
from catalog.compute import dictionary
from catalog.compute.sequences import column_sequence, is_symmetric
from catalog.config import Settings
from catalog.errors import BadInput, NotFound
from catalog.families import FIRST_FAMILY_ID
from catalog.families.filters import MAX_CONDITION_LENGTH, MAX_CONDITIONS
from catalog.service.listings import label_seeds
from catalog.store import tables
from catalog.store.ids import UnknownEntry
from catalog.store.seed import load_seeds
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated


@pytest.fixture
def make_store(migrated_url, family_sets):
    stores = []

    def make(url=migrated_url, **ranges):
        store = service.Store(Settings.load(url))
        store.families = family_sets(**ranges)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.dispose()


SMALL = {"box": 5, "maharaja": 5, "adjoined": 6, "cell": 3}
#: The families of the shared catalog, every member with its invariants.
TABLED = ("box", "maharaja", "cell")


def invariants_of(store, labels):
    for label in labels:
        service.entry_invariants(store, service.entry_number(store, label))


@pytest.fixture(scope="module", params=BACKENDS)
def tabled(request, tmp_path_factory, family_sets):
    """A catalog of the seeds and the members of :data:`TABLED` (SMALL's
    ranges) with their invariants, shared by the module's tests that only
    read it."""
    folder = tmp_path_factory.mktemp("tabled")
    store = service.Store(
        Settings.load(new_database_url(request.param, request, folder, migrated))
    )
    store.families = family_sets(**SMALL)
    service.seed_families(store, list(TABLED))
    invariants_of(store, [m.label for f in TABLED for m in store.families.members(f)])
    yield store
    store.dispose()


@pytest.fixture
def second_url(migrated_url, request, tmp_path):
    """Another empty database of the same backend."""
    backend = "sqlite" if migrated_url.startswith("sqlite") else "postgresql"
    folder = tmp_path / "second"
    folder.mkdir()
    return new_database_url(backend, request, folder, migrated)


def test_ids_do_not_depend_on_what_is_seeded_first(make_store, second_url, family_sets):
    one = make_store(**SMALL)
    two = make_store(second_url, **SMALL)
    service.seed_families(one, ["adjoined", "maharaja"])
    service.seed_families(two, ["maharaja"])
    service.seed_families(two, ["adjoined"])
    number = service.entry_number
    for member in one.families.members("adjoined"):
        assert number(one, member.label) == number(two, member.label)
        assert number(one, member.label) == one.families.number(member)
    assert number(one, "adjoined.2.5") == number(one, "maharaja.2.5")
    # Box members are in no lower family: the narrow range gives the numbers
    # of the shipped one.
    shipped = family_sets()
    service.seed_families(one, ["box"])
    for member in one.families.members("box"):
        shipped_number = shipped.number(shipped.parse_label(member.label))
        assert number(one, member.label) == shipped_number


def test_seeding_is_idempotent_and_keeps_seed_ids(make_store):
    store = make_store(**SMALL)
    first = service.seed_families(store, ["maharaja"])
    assert "W000004" in first["unchanged"] or "W000004" in first["added"]
    again = service.seed_families(store, ["maharaja"])
    assert again["added"] == [] and again["updated"] == []
    assert again["families"] == {"maharaja": {"members": 10, "added": 0}}
    doc = service.show(store, "maharaja.1.2")
    assert doc["id"] == "W000004" and doc["name"] == "Maharaja Nim"
    assert doc["label"] == "maharaja.1.2" and doc["labels"] == [
        "maharaja.1.2",
        "adjoined.1.2",
    ]
    assert doc["family"] == {"name": "maharaja", "parameters": {"k": 1, "l": 2}}
    assert service.show(store, "adjoined.1.2")["id"] == "W000004"
    plain = service.show(store, "maharaja.2.4")
    assert int(plain["id"][1:]) >= FIRST_FAMILY_ID and plain["source"] == "seed"


def test_plain_seed_labels_the_seeds(make_store):
    store = make_store()
    service.seed(store)
    assert service.show(store, "W000017")["label"] == "box.8.13"
    assert service.show(store, "cell.N.0.0")["id"] == "W000002"


def test_bad_labels_and_unseeded_members(make_store):
    store = make_store(**SMALL)
    service.seed(store)
    with pytest.raises(UnknownEntry, match="box.3.3 is not in this catalog yet"):
        service.show(store, "box.3.3")
    with pytest.raises(NotFound, match="unknown family 'boxes'"):
        service.show(store, "boxes.3.3")
    # Well formed, but no member: not found (404), saying why.
    with pytest.raises(UnknownEntry, match="a: 9 is out of range 1..5"):
        service.show(store, "box.9.3")
    with pytest.raises(BadInput, match="not an entry ID"):
        service.show(store, "W12")


def test_a_failed_family_seed_writes_nothing(make_store):
    store = make_store(**SMALL)
    with pytest.raises(NotFound, match="unknown family 'nope'"):
        service.seed_families(store, ["box", "nope"])
    assert service.list_entries(store)["entries"] == []
    assert all(f["seeded"] == 0 for f in service.families(store)["families"])


def test_user_entries_stay_below_the_family_blocks(make_store):
    store = make_store(**SMALL)
    service.seed_families(store, ["box"])
    added = service.add(store, '{"rays": [[1, 0], [0, 1], [2, 3]]}')
    assert added == {"id": "W000027", "created": True}
    # A family's game added by hand gets the next number and its labels; it
    # keeps that number when the family is seeded.
    game = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 5], [5, 2]]}'
    assert service.add(store, game) == {"id": "W000028", "created": True}
    assert service.show(store, "adjoined.2.5")["id"] == "W000028"
    service.seed_families(store, ["maharaja"])
    assert service.entry_number(store, "maharaja.2.5") == 28


def _seed_one_at_a_time(store, names):
    """The reference for :func:`service.seed_families`: each member in
    turn, its entry found, added or refreshed by the store's one-entry
    functions, then labelled."""
    from catalog.store import repository as repo
    from catalog.store.models import Label

    fs = store.families
    with store.sessions.begin() as session:
        load_seeds(session)
        label_seeds(session, fs)
        for name in names:
            for member in fs.members(name):
                key = member.game.key
                primary = fs.by_key[key][0]
                number = fs.numbers[key]
                fields = {
                    "name": primary.name,
                    "description": primary.description,
                    "references": primary.references,
                    "keywords": primary.keywords,
                    "provenance": primary.provenance,
                }
                entry = repo.find_entry(session, member.game)
                if entry is None:
                    assert session.get(repo.Entry, number) is None
                    entry, _ = repo.add_entry(
                        session, member.game, number=number, source="seed", **fields
                    )
                elif entry.id == number and number not in fs.seed_ids.values():
                    repo.update_entry(
                        session, entry, member.game, source="seed", **fields
                    )
                for row in fs.label_rows(key):
                    codes = [*row["codes"], None, None, None]
                    values = {
                        "entry_id": entry.id,
                        "family": row["family"],
                        "rank": row["rank"],
                        "parameters": row["parameters"],
                        "p1": codes[0],
                        "p2": codes[1],
                        "p3": codes[2],
                    }
                    label = session.get(Label, row["label"])
                    if label is None:
                        session.add(Label(label=row["label"], **values))
                    else:
                        for name, value in values.items():
                            setattr(label, name, value)


def _rows(store):
    """Every row seeding writes, with the games and alterations by key."""
    t = tables
    with store.sessions() as session:

        def rows(query):
            return sorted(tuple(map(repr, row)) for row in session.execute(query))

        entries = (
            select(t.entries, t.games.c.key, t.alterations.c.key)
            .join(t.games)
            .outerjoin(t.alterations)
        )
        return {
            "entries": rows(entries),
            "games": rows(select(t.games)),
            "alterations": rows(select(t.alterations)),
            "keywords": rows(select(t.entry_keywords)),
            "labels": rows(select(t.labels)),
        }


def _without_times_and_ids(dump):
    out = {}
    for table, rows in dump.items():
        out[table] = sorted(
            tuple(
                v
                for v in row
                if not v.startswith("datetime.")
                and not (table in ("games", "alterations") and v.isdigit())
            )
            for row in rows
        )
    # Entries refer to games and alterations by key (joined above).
    out["entries"] = sorted(
        tuple(v for i, v in enumerate(row) if i not in (9, 10))
        for row in out["entries"]
    )
    return out


def test_seeding_writes_what_one_member_at_a_time_writes(make_store, second_url):
    """Batched writes against the one-entry functions, on a catalog that
    already holds a seed, a family game added by hand under a user number
    and an edited family entry, for families that share games."""
    names = ["maharaja", "adjoined", "box", "cell"]
    stores = [make_store(**SMALL), make_store(second_url, **SMALL)]
    for store in stores:
        service.seed(store)
        service.add(
            store, '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 5], [5, 2]]}'
        )
        service.seed_families(store, ["box"])
        number = service.entry_number(store, "box.2.3")
        with store.sessions.begin() as session:
            session.execute(
                update(tables.entries)
                .where(tables.entries.c.id == number)
                .values(name="renamed by hand", keywords=["by-hand"])
            )
            # Labels that say something else than the family files: moved to
            # another entry, another rank and codes.
            session.execute(
                update(tables.labels)
                .where(tables.labels.c.label == "box.2.3")
                .values(entry_id=1, rank=7, p1=None, parameters={})
            )
    service.seed_families(stores[0], names)
    _seed_one_at_a_time(stores[1], names)
    one, two = (_without_times_and_ids(_rows(s)) for s in stores)
    assert one["entries"] and one["labels"] and one["alterations"]
    assert one == two


def test_box_offsets_table_is_theorem_2(tabled):
    store = tabled
    doc = service.table(store, "box", "offset")
    assert doc["rows"] == {"name": "a", "values": [1, 2, 3, 4, 5]}
    assert doc["columns"] == {"name": "b", "values": [1, 2, 3, 4, 5]}
    assert doc["cells"] == [[[b - 1, a - 1] for b in range(1, 6)] for a in range(1, 6)]
    found = service.list_entries(store, family="box", where=["offset=4,1"])
    assert [e["label"] for e in found["entries"]] == ["box.2.5"]


def test_maharaja_deviation_table_matches_a_direct_computation(tabled):
    store = tabled
    members = store.families.members("maharaja")
    doc = service.table(store, "maharaja", "deviation")
    rows, columns = doc["rows"]["values"], doc["columns"]["values"]
    assert (rows, columns) == ([1, 2, 3, 4], [2, 3, 4, 5])
    assert doc["cells"][0][0] == [-4, 3]  # Maharaja Nim, end of section 2
    assert doc["cells"][3][0] is None  # (4,2) is no member: k < l
    n = dictionary.DEFAULT_N
    for m in members:
        k, l_ = m.parameters["k"], m.parameters["l"]
        dev = dictionary.deviations(p_positions(m.game, n), n)
        cell = doc["cells"][rows.index(k)][columns.index(l_)]
        assert cell == [dev.min, dev.max], m.label


def test_filters_sort_and_page_like_a_scan(tabled):
    store = tabled
    labels = [m.label for f in TABLED for m in store.families.members(f)]
    docs = {label: service.show(store, label) for label in labels}
    by_id = {d["id"]: d for d in docs.values()}
    # Reference: a scan of the documents, sorted by defects then ID (the
    # Maharaja games have none: they are no altered Wythoff games).
    expected = sorted(
        (d["defects"], d["id"])
        for d in by_id.values()
        if d.get("defects") is not None and d["defects"] <= 3
    )
    seen, after = [], None
    while True:
        page = service.list_entries(
            store, where=["defects<=3"], sort="defects", after=after, limit=4
        )["entries"]
        if not page:
            break
        seen += [(e["values"]["defects"], e["id"]) for e in page]
        after = page[-1]["id"]
    assert seen == expected
    down = service.list_entries(store, where=["defects<=3"], sort="-defects")
    assert [(e["values"]["defects"], e["id"]) for e in down["entries"]] == sorted(
        expected, reverse=True
    )
    cells = service.list_entries(
        store, family="cell", where=["kind=P", "x>=1", "defects=0"], sort="y"
    )["entries"]
    wanted = [
        (m.parameters["y"], docs[m.label]["id"], m.label)
        for m in store.families.members("cell")
        if m.parameters["kind"] == "P"
        and m.parameters["x"] >= 1
        and docs[m.label]["defects"] == 0
    ]
    assert wanted, "some single P cells have no defects"
    assert [e["label"] for e in cells] == [label for *_, label in sorted(wanted)]


def test_fill_facts_match_the_positions(make_store):
    store = make_store(**SMALL)
    service.seed_families(store, ["box", "maharaja"])
    expected = {}
    for label in ("maharaja.1.2", "maharaja.2.5", "box.2.3", "box.4.4"):
        service.compute(store, label, 300)
        # Whole columns x < 300: their P-positions lie below y = 2000.
        found = p_positions(store.families.parse_label(label).game, 2000)
        found = found[found[:, 0] < 300]
        expected[label] = (
            column_sequence(found, 300) is not None,
            is_symmetric(found, 300),
        )
    assert set(expected.values()) == {(True, True), (False, True), (False, False)}
    for one_p in (True, False):
        for symmetric in (True, False):
            where = [f"one_p_per_column={one_p}", f"symmetric={symmetric}"]
            rows = service.list_entries(store, where=where)["entries"]
            assert [e["label"] for e in rows] == [
                label
                for label, facts in expected.items()
                if facts == (one_p, symmetric)
            ], where
            for e in rows:
                assert e["values"] == {
                    "one_p_per_column": one_p,
                    "symmetric": symmetric,
                }
    same = service.list_entries(store, where=["xref_class=W000004"])["entries"]
    assert [e["id"] for e in same] == ["W000004"]


def test_filter_errors(tabled):
    store = tabled
    cases = [
        ({"where": ["defects"]}, BadInput, "expected FIELD OP VALUE"),
        ({"where": ["colour=1"]}, BadInput, "unknown field 'colour'"),
        ({"where": ["offset<1,2"]}, BadInput, "offset takes only = and !="),
        ({"where": ["offset=1"]}, BadInput, "offset: '1' is not a pair"),
        ({"where": ["defects=x"]}, BadInput, "defects: 'x' is not an integer"),
        (
            {"family": "nimhoff", "where": ["deviation_max<3"]},
            BadInput,
            "the family nimhoff has no deviations_max",
        ),
        ({"family": "box", "where": ["k=1"]}, BadInput, "unknown field 'k'"),
        ({"family": "nope"}, NotFound, "unknown family 'nope'"),
        ({"sort": "offset"}, BadInput, "sort by offset_dx or offset_dy"),
    ]
    for kwargs, kind, message in cases:
        with pytest.raises(kind, match=message):
            service.list_entries(store, **kwargs)
    with pytest.raises(BadInput, match="a table needs one or two free parameters"):
        service.table(store, "cell", "defects")
    with pytest.raises(BadInput, match="the family maharaja has no offset"):
        service.table(store, "maharaja", "offset")
    with pytest.raises(BadInput, match="unknown invariant 'colour'"):
        service.table(store, "box", "colour")
    with pytest.raises(BadInput, match="--fix kind: 'Q' is not one of P, N"):
        service.table(store, "cell", "defects", ["kind=Q"])


def test_the_documented_limits_of_where_and_no_less(tabled):
    """16 conditions of 100 characters each are answered; one more
    condition, or one more character, is refused (docs/cli.md, OpenAPI)."""
    longest = "defects" + " " * 90 + "<=5"
    assert len(longest) == MAX_CONDITION_LENGTH == 100
    service.list_entries(tabled, where=[longest] * MAX_CONDITIONS)
    with pytest.raises(BadInput, match="at most 16 conditions"):
        service.list_entries(tabled, where=[longest] * (MAX_CONDITIONS + 1))
    with pytest.raises(BadInput, match="where"):
        service.list_entries(tabled, where=[longest + " "])


def test_search_by_label_and_family(tabled):
    store = tabled
    found = service.search(store, "id:maharaja.2.3")["results"]
    assert [r["id"] for r in found] == ["W000005"]
    family = service.search(store, "family:maharaja")["results"]
    assert len(family) == 10


def test_a_field_has_its_invariants_name_and_the_old_spelling_still_works():
    """One name per invariant: the entry document's (deviations,
    adjoined_moves); the earlier spellings are read as the same field."""
    from catalog.families.filters import ALIASES, FIELDS, parse_sort, parse_where

    assert {"deviations", "deviations_min", "deviations_max", "adjoined_moves"} <= set(
        FIELDS
    )
    for old, new in ALIASES.items():
        assert new in FIELDS and old not in FIELDS
    assert parse_where("deviation=-4,3") == parse_where("deviations=-4,3")
    assert parse_where("adjoined=true").field == "adjoined_moves"
    assert parse_sort("-deviation_min", None, None) == "-deviations_min"


def test_a_family_sorts_by_an_invariant_as_by_a_parameter(tabled):
    """Within a family, ``--sort`` takes the invariants' fields as well as
    the family's parameters."""
    rows = service.list_entries(tabled, family="box", sort="-defects")["entries"]
    defects = [row["values"]["defects"] for row in rows]
    assert defects and defects == sorted(defects, reverse=True)
    by_a = service.list_entries(tabled, family="box", sort="a")["entries"]
    assert len(by_a) == len(rows)
