"""Derived sequences stop at MAX_TERMS terms: the sequence route says so in
a field, the b-file and the OEIS export in a comment line (both databases;
the cap is lowered to 50 so that the test stays small)."""

import pytest

import catalog.compute.sequences
import catalog.service.entries
import catalog.service.sequences
from catalog import p_positions

CAP = 50
WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
NOTE = (
    f"capped: the catalog keeps the first {CAP} terms of each derived sequence; "
    f"these {CAP} terms stop there"
)


@pytest.fixture
def client(fresh_app, monkeypatch):
    for module in (
        catalog.compute.sequences,
        catalog.service.entries,
        catalog.service.sequences,
    ):
        monkeypatch.setattr(module, "MAX_TERMS", CAP)
    return fresh_app.test_client()


def text(client, url):
    response = client.get("/api/v1" + url)
    assert response.status_code == 200, response.get_json()
    return response.get_data(as_text=True)


def lower_wythoff(n):
    """a_k < n: every pair (a_k, b_k) has b_k < 2 a_k, so 2n columns hold them."""
    return sorted(
        x for x, y in p_positions(WYTHOFF, 2 * n).tolist() if x <= y and x < n
    )


def test_capped_sequences_and_exports_say_so(client):
    bfile = text(client, "/entries/W000001/export?format=bfile&n=120")
    assert bfile.splitlines() == [
        "# W000001 sequence a, offset 0",
        f"# {NOTE}",
        *(f"{i} {a}" for i, a in enumerate(lower_wythoff(120)[:CAP])),
    ]
    oeis = text(client, "/entries/W000001/export?format=oeis&n=120")
    assert f"%C W000001 {NOTE.capitalize()}." in oeis.splitlines()
    seq = client.get("/api/v1/entries/W000001/sequences/a?limit=100").get_json()
    assert (seq["length"], seq["capped"], seq["next"]) == (CAP, True, None)
    assert seq["terms"] == lower_wythoff(120)[:CAP]
    shown = client.get("/api/v1/entries/W000001").get_json()
    assert shown["sequences"]["a"]["capped"] is True


def test_uncapped_exports_have_no_note(client):
    # Every a_n < 40 is among the stored terms: nothing is missing.
    bfile = text(client, "/entries/W000001/export?format=bfile&n=40")
    assert bfile.splitlines() == [
        "# W000001 sequence a, offset 0",
        *(f"{i} {a}" for i, a in enumerate(lower_wythoff(40))),
    ]
    oeis = text(client, "/entries/W000001/export?format=oeis&n=40")
    assert "capped" not in oeis.lower()
