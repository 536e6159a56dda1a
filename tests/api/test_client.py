"""The notebook client against a real HTTP server: every route, pages
followed, failures as the catalog's own errors."""

import socket

import numpy as np
import pytest

from catalog import errors, p_positions
from catalog.client import Catalog, CatalogError
from catalog.compute.grundy import grundy
from catalog.store.seed import read_seed, seed_dir
from tests.api.conftest import serve

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]
WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}


@pytest.fixture(scope="module")
def base(app):
    url, stop = serve(app)
    Catalog(url).p_positions("W000004", 300)  # stores W000004's sequences
    yield url
    stop()


@pytest.fixture
def cat(base):
    return Catalog(base, page_size=7)  # small pages: every loop turns


def recorded(app, log):
    """``app`` as a WSGI app that notes each request's query string."""

    def wsgi(environ, start_response):
        log.append(environ.get("QUERY_STRING", ""))
        return app(environ, start_response)

    return wsgi


def test_is_p_answers_true_or_false(cat):
    # A yes/no question answers a bool, so `if`, `not` and filters mean it.
    assert cat.is_p("W000001", 3, 5) is True
    assert cat.is_p("W000001", 3, 4) is False
    assert cat.is_p("W000001", 10**30, 10**30) is False
    points = [(x, y) for x in range(8) for y in range(8)]
    found = [p for p in points if cat.is_p("W000001", *p)]
    assert found == [tuple(p) for p in p_positions(WYTHOFF, 8).tolist()]


def test_position_is_the_whole_answer(cat):
    assert cat.position("W000001", 3, 5) == {
        "id": "W000001",
        "position": [3, 5],
        "outcome": "P",
        "move_to": None,
    }
    move = cat.position("W000001", 3, 4)
    assert move["outcome"] == "N"
    assert cat.is_p("W000001", *move["move_to"]) is True


def test_entries_limit_asks_for_no_more(app):
    log: list[str] = []
    url, stop = serve(recorded(app, log))
    try:
        cat = Catalog(url)
        everything = [e["id"] for e in cat.entries()]
        log.clear()
        first = [e["id"] for e in cat.entries(limit=5)]
        asked = list(log)
        assert [e["id"] for e in cat.entries(limit=0)] == []
        none = list(log[len(asked) :])
    finally:
        stop()
    assert len(everything) > 5
    assert first == everything[:5]
    assert len(asked) == 1 and "limit=5" in asked[0].split("&")
    assert none == []  # limit=0 asks nothing


def test_entries_frame_takes_a_limit(cat):
    pytest.importorskip("pandas")  # a test dependency
    frame = cat.entries_frame(limit=4)
    assert list(frame.index) == [e["id"] for e in cat.entries()][:4]


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (-1, ValueError, "limit: must be at least 0, not -1"),
        (2.0, TypeError, "limit: an integer is needed, not float"),
        ("5", TypeError, "limit: an integer is needed, not str"),
    ],
)
def test_a_bad_entries_limit_is_refused(cat, bad, error, message):
    with pytest.raises(error, match=message):
        next(cat.entries(limit=bad))


def test_grundy_is_an_array_equal_to_the_computation(cat):
    found = cat.grundy("W000001", 12)
    assert found.shape == (12, 12)
    assert np.array_equal(found, np.asarray(grundy(WYTHOFF, 12)))
    assert set(map(tuple, np.argwhere(found == 0).tolist())) == set(
        map(tuple, p_positions(WYTHOFF, 12).tolist())
    )


def test_adjoinable(cat):
    assert cat.adjoinable(3, 5)["adjoinable"] is False
    assert cat.adjoinable(3, 5)["move"] == [3, 5]


def test_sequence_follows_pages_and_matches_the_positions(cat):
    y = cat.sequence("W000004", "y")  # y(x): the row of column x's P-position
    assert len(y) == 300
    found = p_positions(MAHARAJA, 1000)  # rows reach about 1.62 x
    lower = found[found[:, 0] < 300]
    assert np.array_equal(lower[:, 0], np.arange(300))  # one P per column
    assert y.tolist() == lower[:, 1].tolist()


def test_bitstring_and_export(cat):
    bits = cat.bitstring("maharaja.1.2")
    assert bits["id"] == "W000004" and set(bits["bits"]) <= {"0", "1"}
    text = cat.export("W000004", "oeis", 100)
    assert "%N" in text and "Maharaja" in text
    bfile = cat.export("W000004", "bfile", 100)
    rows = [line.split() for line in bfile.splitlines() if not line.startswith("#")]
    assert [int(i) for i, _ in rows] == list(range(int(rows[0][0]), len(rows)))


def test_entries_filters_and_follows_the_cursor(cat):
    everything = [e["id"] for e in cat.entries()]
    assert everything[:3] == ["W000001", "W000002", "W000003"]
    assert len(everything) == len(set(everything)) >= 20
    named = [e["id"] for e in cat.entries(q="maharaja")]
    assert "W000004" in named and "W000001" not in named
    assert [e["id"] for e in cat.entries(keyword="maharaja")] == named or named


def test_search_follows_every_page(base):
    small = Catalog(base, page_size=2).search("keyword:maharaja")
    whole = Catalog(base).search("keyword:maharaja")
    assert len(whole) > 2
    assert small == whole
    assert Catalog(base, page_size=2).search("keyword:maharaja", limit=3) == whole[:3]


def test_families_and_table(cat):
    names = [f["name"] for f in cat.families()]
    assert "maharaja" in names and "box" in names
    grid = cat.table("maharaja", "id")
    assert grid["rows"]["name"] == "k" and grid["columns"]["name"] == "l"


def test_arguments_are_escaped(cat):
    with pytest.raises(CatalogError) as caught:
        cat.entry("W0/../../openapi.json")
    assert caught.value.status in (400, 404)
    with pytest.raises(CatalogError) as caught:
        cat.search("1,2 3?x=&q=4")
    assert caught.value.status == 422  # one query, whole: not a list of terms


def test_errors_are_the_catalogs_own(cat):
    with pytest.raises(CatalogError, match="404: no entry W999999") as caught:
        cat.entry("W999999")
    assert isinstance(caught.value, errors.CatalogError)
    assert caught.value.status == 404


def test_a_server_that_is_not_there_is_a_catalog_error():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(CatalogError, match="cannot reach") as caught:
        Catalog(f"http://127.0.0.1:{port}", timeout=5).entry("W000001")
    assert caught.value.status == 503


def test_plot_draws_the_p_positions(cat, monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")  # a test dependency
    matplotlib.use("Agg")
    ax = cat.plot("W000004", 40)
    drawn = ax.collections[0].get_offsets()
    assert np.array_equal(np.asarray(drawn), p_positions(MAHARAJA, 40))
    assert ax.get_title().startswith("W000004")
    monkeypatch.setitem(__import__("sys").modules, "matplotlib.pyplot", None)
    with pytest.raises(
        ImportError, match="plot needs matplotlib: pip install matplotlib"
    ):
        cat.plot("W000004", 40)
