"""``/api/v1/families`` and the entries filters: whole payloads, paging and
every bad input."""

from __future__ import annotations

import pytest

from catalog import service
from tests.store.narrowed import small_families


@pytest.fixture(scope="module")
def seeded(app, tmp_path_factory):
    """The module's catalog with the members of box, a, b <= 4."""
    store = app.extensions["catalog"]
    store.families = small_families(tmp_path_factory.mktemp("families"), box=4)
    service.seed_families(store, ["box"])
    return store


def test_families_is_what_the_cli_prints(client, seeded):
    body = client.get("/api/v1/families").get_json()
    assert body == service.families(seeded)
    box = next(f for f in body["families"] if f["name"] == "box")
    # The app's first seeding, with the shipped ranges, also labelled the
    # seeds Box(8,13), Box(3,5) and Box(5,3), outside a, b <= 4.
    assert (box["members"], box["seeded"], box["first_id"]) == (16, 19, "W120000")


def test_table_whole_payload(client, seeded):
    body = client.get("/api/v1/families/box/table?invariant=id").get_json()
    number = seeded.families.number
    label = seeded.families.parse_label
    assert body == {
        "family": "box",
        "invariant": "id",
        "rows": {"name": "a", "values": [1, 2, 3, 4]},
        "columns": {"name": "b", "values": [1, 2, 3, 4]},
        "cells": [
            [f"W{number(label(f'box.{a}.{b}')):06d}" for b in range(1, 5)]
            for a in range(1, 5)
        ],
    }
    assert body == service.table(seeded, "box", "id")


def test_a_family_of_one_free_parameter_is_a_column_of_its_members(client, seeded):
    """nimhoff's one parameter is its rule set: a row for each stored member
    (the seeds Two-pile Nim, Wythoff's Nim, W000012 and W000014), in the
    parameter's order, one column."""
    body = client.get("/api/v1/families/nimhoff/table?invariant=id").get_json()
    ids = {e["label"]: e["id"] for e in _nimhoff(seeded)}
    stored = sorted(
        (m.codes[0], m.parameters["rays"], ids[m.label])
        for m in seeded.families.members("nimhoff")
        if m.label in ids
    )
    assert len(stored) >= 4
    assert body == {
        "family": "nimhoff",
        "invariant": "id",
        "rows": {"name": "rays", "values": [rays for _, rays, _ in stored]},
        "columns": {"name": "invariant", "values": ["id"]},
        "cells": [[wid] for _, _, wid in stored],
    }
    symmetric = client.get("/api/v1/families/nimhoff/table?invariant=symmetric")
    assert symmetric.status_code == 200
    # A box with a fixed is a column over b.
    fixed = client.get("/api/v1/families/box/table?invariant=id&fix=a%3D2").get_json()
    assert fixed["rows"] == {"name": "b", "values": [1, 2, 3, 4]}
    assert fixed["cells"] == [
        [f"W{seeded.families.number(seeded.families.parse_label(f'box.2.{b}')):06d}"]
        for b in range(1, 5)
    ]


def _nimhoff(store):
    return service.list_entries(store, family="nimhoff", limit=1000)["entries"]


def test_a_table_of_no_free_parameter_is_refused(client, seeded):
    response = client.get("/api/v1/families/box/table?invariant=id&fix=a%3D1&fix=b%3D1")
    assert response.status_code == 422
    assert response.get_json() == {
        "error": "a table needs one or two free parameters; box has a, b: fix fewer"
    }


def test_entries_filtered_sorted_and_paged(client, seeded):
    url = "/api/v1/entries?family=box&where=a%3D2&sort=-b&limit=3"
    first = client.get(url).get_json()
    number = seeded.families.number
    label = seeded.families.parse_label

    def row(b):
        wid = f"W{number(label(f'box.2.{b}')):06d}"
        doc = service.show(seeded, wid)
        return {
            "id": wid,
            "name": doc["name"],
            "keywords": doc["keywords"],
            "label": f"box.2.{b}",
            "values": {"a": 2, "b": b},
            "url": f"/api/v1/entries/{wid}",
        }

    assert first["entries"] == [row(4), row(3), row(2)] and first["next"]
    second = client.get(url + "&cursor=" + first["next"]).get_json()
    assert second == {"entries": [row(1)], "next": None}


def test_a_label_is_accepted_wherever_an_id_is(client, seeded):
    by_label = client.get("/api/v1/entries/box.2.3").get_json()
    wid = by_label["id"]
    assert by_label == client.get(f"/api/v1/entries/{wid}").get_json()
    assert by_label["label"] == "box.2.3"
    assert by_label["family"] == {"name": "box", "parameters": {"a": 2, "b": 3}}
    positions = client.get("/api/v1/entries/box.2.3/p-positions?n=10").get_json()
    assert positions == client.get(f"/api/v1/entries/{wid}/p-positions?n=10").get_json()
    found = client.get("/api/v1/search?q=id:box.2.3").get_json()["results"]
    assert [r["id"] for r in found] == [wid]


BAD = [
    ("/api/v1/families/nope/table?invariant=id", 404, "unknown family 'nope' ("),
    ("/api/v1/families/box/table", 400, "invariant: required"),
    ("/api/v1/families/box/table?invariant=colour", 400, "unknown invariant 'colour'"),
    (
        "/api/v1/families/box/table?invariant=deviation",
        422,
        "the family box has no deviations: it applies to none of its members",
    ),
    ("/api/v1/entries?where=defects", 400, "--where 'defects': expected FIELD OP"),
    ("/api/v1/entries?where=colour%3D1", 422, "unknown field 'colour' (fields: "),
    ("/api/v1/entries?family=nope", 404, "unknown family 'nope' ("),
    ("/api/v1/entries?family=box&where=k%3D1", 422, "unknown field 'k' (fields: "),
    ("/api/v1/entries?sort=offset", 422, "--sort offset: a pair; sort by offset_dx"),
    ("/api/v1/entries/box.9.1", 404, "a: 9 is out of range 1..4"),
    ("/api/v1/entries/boxes.1.1", 404, "unknown family 'boxes' ("),
    ("/api/v1/entries/maharaja.5.7", 404, "maharaja.5.7 is not in this catalog yet"),
]


@pytest.mark.parametrize("url, status, message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_4xx_error_body(client, seeded, url, status, message):
    response = client.get(url)
    body = response.get_json()
    assert response.status_code == status and list(body) == ["error"]
    assert message in body["error"]
