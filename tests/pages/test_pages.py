"""The web pages through Flask's test client: structure, escaping, pictures,
errors, caching."""

import json

import pytest

from catalog import p_positions
from catalog.api.pages import DEFAULTS
from catalog.store.seed import read_seed, seed_dir
from tests.api.conftest import make_app
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded
from tests.pages.htmlcheck import Page

SEEDS = sorted(p.stem for p in seed_dir().glob("W*.json"))


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, response.data[:300]
    assert response.mimetype == "text/html"
    parsed = Page(response.get_data(as_text=True))
    assert parsed.problems() == []
    assert parsed.scripts == 0
    return response, parsed


def definition(wid):
    return read_seed(seed_dir() / f"{wid}.json")["definition"]


@pytest.mark.parametrize("wid", SEEDS)
def test_every_seeded_entry_page(client, wid):
    response, parsed = page(client, f"/{wid}")
    text = response.get_data(as_text=True)
    seed = read_seed(seed_dir() / f"{wid}.json")
    assert f'<h1><span class="id">{wid}</span>' in text
    assert "plot-positions" in parsed.svgs
    # The plot draws every P-position of the window, one dot each.
    n = DEFAULTS["PLOT_N"]
    expected = p_positions(seed["definition"], n).tolist()
    assert parsed.dots("plot-positions", "pt") == [tuple(p) for p in expected]
    # Downloads and the API link point at routes that answer.
    assert f'href="/api/v1/entries/{wid}"' in text
    assert client.get(
        f"/api/v1/entries/{wid}/export?format=oeis&n={n}"
    ).status_code in (
        200,
        404,  # entries without an integer sequence have no OEIS export
    )


@pytest.mark.parametrize("n", [1, 37, 500])
def test_plot_window_follows_n(client, n):
    _, parsed = page(client, f"/W000004?n={n}")
    expected = p_positions(definition("W000004"), n).tolist()
    assert parsed.dots("plot-positions", "pt") == [tuple(p) for p in expected]


def test_altered_overlay_marks_the_defects(client):
    """W000016's P-positions against Wythoff's shifted by the offset: the
    counts of the picture match a set computation from p_positions."""
    n = 120
    _, parsed = page(client, f"/W000016?n={n}")
    mine = {tuple(p) for p in p_positions(definition("W000016"), n).tolist()}
    doc = client.get("/api/v1/entries/W000016").get_json()
    dx, dy = doc["offset"]["dx"], doc["offset"]["dy"]
    wythoff = {
        (x - dx, y - dy)
        for x, y in p_positions(definition("W000001"), n + max(dx, dy)).tolist()
        if 0 <= x - dx < n and 0 <= y - dy < n
    }
    assert set(parsed.dots("plot-overlay", "same")) == mine & wythoff
    assert set(parsed.dots("plot-overlay", "extra")) == mine - wythoff
    assert parsed.count("plot-overlay", "circle", "missing") == len(wythoff - mine)
    assert mine - wythoff  # the defects are there to see


def test_maharaja_pictures(client):
    response, parsed = page(client, "/W000004")
    assert {
        "plot-positions",
        "plot-deviations",
        "plot-bitstring",
        "plot-grundy",
    } <= set(parsed.svgs)
    text = response.get_data(as_text=True)
    assert "(27)" in text and "(33)" in text  # the dictionary's equation numbers
    # The Grundy heat map shows the API's values, zeros where the P-positions are.
    side = DEFAULTS["GRUNDY_PICTURE_N"]
    grundy = client.get(f"/api/v1/entries/W000004/grundy?n={side}").get_json()
    assert parsed.count("plot-grundy", "rect", None) == side * side
    zeros = sum(row.count(0) for row in grundy["grundy"])
    assert zeros == len(p_positions(definition("W000004"), side))


def test_home_search_and_adjoinable(client):
    response, _ = page(client, "/")
    assert 'href="/W000001"' in response.get_data(as_text=True) or "W0000" in (
        response.get_data(as_text=True)
    )
    response, _ = page(client, "/search?q=maharaja")
    text = response.get_data(as_text=True)
    assert 'href="/W000004"' in text and 'href="/W000005"' in text
    client.get("/W000001?n=300")  # stores Wythoff's sequences up to 300
    response, _ = page(client, "/search?q=1,3,4,6,8,9,11")
    assert "<mark>1, 3, 4, 6, 8, 9, 11</mark>" in response.get_data(as_text=True)
    page(client, "/search")
    response, _ = page(client, "/adjoinable?i=1&j=3")
    api = client.get("/api/v1/adjoinable/1/3").get_json()
    verdict = "is adjoinable" if api["adjoinable"] else "is not adjoinable"
    assert verdict in response.get_data(as_text=True)
    page(client, "/adjoinable")


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/W999999", 404),
        ("/nothing-here", 404),
        ("/a/b/c", 404),
        ("/W000004?n=abc", 400),
        ("/W000004?n=0", 400),
        (f"/W000004?n={DEFAULTS['MAX_PLOT_N'] + 1}", 400),
        ("/adjoinable?i=1", 400),
        ("/adjoinable?i=1&j=-2", 400),
        ("/adjoinable?i=0&j=0", 422),
        ("/search?q=1,2", 422),
        ("/search?q=maharaja&offset=x", 400),
    ],
)
def test_errors_are_html_pages(client, url, status):
    response, parsed = page(client, url, status)
    assert f"Error {status}" in response.get_data(as_text=True)


def test_api_errors_stay_json(client):
    response = client.get("/api/v1/entries/W999999")
    assert response.status_code == 404
    assert response.get_json() == {"error": "no entry W999999"}
    assert client.get("/api/v1/nothing").get_json()["error"].startswith("not found")


def test_etag_and_304(client):
    first = client.get("/W000017")
    assert first.headers["ETag"]
    again = client.get("/W000017", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_api_entry_links_its_page(client):
    doc = client.get("/api/v1/entries/W000016").get_json()
    assert doc["page"] == "/W000016"
    assert client.get(doc["page"]).status_code == 200


def test_static_files(client):
    # Static files answer with an open file: close it (filterwarnings=error).
    with client.get("/assets/site.css") as css:
        assert css.status_code == 200 and b"svg .pt" in css.data
    with client.get("/assets/favicon.svg") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        svg = icon.data
    # Where a browser looks on a page that names no icon (a JSON route).
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert icon.data == svg


HOSTILE = '<script>alert("x")</script> & \'quoted\' "name"'


@pytest.fixture(scope="module", params=BACKENDS)
def hostile(request, tmp_path_factory):
    """A catalog with an entry whose every text field tries to inject markup,
    shared by the module's tests (they only read)."""
    from catalog import service

    tmp_path = tmp_path_factory.mktemp("hostile")
    app = make_app(new_database_url(request.param, request, tmp_path, seeded), False)

    seed = {
        "id": "W000100",
        "name": HOSTILE,
        "definition": {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 5], [5, 2]]},
        "description": HOSTILE + " description",
        "references": [{"citation": HOSTILE, "locator": HOSTILE, "doi": None,
                        "url": 'https://example.org/"><script>x</script>'},
                       {"citation": HOSTILE + " unlinked", "locator": None,
                        "doi": None, "url": None}],
        "keywords": ["<b>bold</b>", "quote\"d"],
        "provenance": HOSTILE,
    }  # fmt: skip
    folder = tmp_path / "seeds"
    folder.mkdir()
    (folder / "W000100.json").write_text(json.dumps(seed))
    service.seed(app.extensions["catalog"], folder)
    yield app.test_client()
    app.extensions["catalog"].dispose()


@pytest.mark.parametrize(
    "url", ["/W000100", "/", "/search?q=alert", "/search?q=id:W000100"]
)
def test_names_and_descriptions_are_escaped(hostile, url):
    response, parsed = page(hostile, url)
    text = response.get_data(as_text=True)
    assert "<script" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(" in text
    if url == "/W000100":  # a reference's citation without a link too
        assert "<li>&lt;script&gt;alert(&#34;x&#34;)" in text


def test_the_identify_pages_form_and_entry_names_are_escaped(hostile):
    """What the user typed for n and the limit is echoed in the form; a
    stored entry that has the data's P-positions is listed by its name."""
    from catalog import service

    bad = '"><script>alert(1)</script>'
    response, _ = page(hostile, f"/identify?n={bad}&limit={bad}")
    text = response.get_data(as_text=True)
    assert "<script" not in text
    assert text.count('value="&#34;&gt;&lt;script&gt;alert(1)') == 2
    store = hostile.application.extensions["catalog"]
    service.compute(store, "W000100", 20)
    game = service.show(store, "W000100")["definition"]
    rows = p_positions(game, 20).tolist()
    data = " ".join(f"{x},{y}" for x, y in rows if x < 20 and y < 20)
    response, _ = page(hostile, f"/identify?data={data}&n=20")
    text = response.get_data(as_text=True)
    assert '<a href="/W000100">W000100</a>' in text
    assert "<script" not in text and "&lt;script&gt;alert(" in text


@pytest.mark.parametrize(
    "url",
    [
        "/W<script>alert(1)</script>",
        "/search?q=id:<script>alert(1)</script>",
        "/families/<script>alert(1)</script>",
        "/families/box?invariant=<script>alert(1)</script>",
        "/identify?data=<script>alert(1)</script>",
    ],
)
def test_an_error_page_escapes_what_the_user_asked_for(client, url):
    """A refusal names what was asked (an ID, a family, an invariant): as
    text on the error page, whatever its status."""
    response = client.get(url)
    text = response.get_data(as_text=True)
    assert response.status_code in (400, 404, 422), text[:300]
    assert response.mimetype == "text/html"
    assert "<script" not in text
    assert "&lt;script&gt;alert" in text


def test_templates_and_static_files_ship_with_the_package():
    """Every template and static file matches the package-data globs, so a
    non-editable install serves them too."""
    import tomllib
    from pathlib import Path

    import catalog.api

    root = Path(catalog.api.__file__).parent
    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["catalog.api"]
    shipped = {p for g in globs for p in root.glob(g)}
    files = {p for d in ("templates", "static") for p in (root / d).rglob("*")}
    assert files and files == shipped


@pytest.mark.parametrize("wid", ["W000004", "W000005", "W000008"])
def test_deviations_read_off_the_window_match_the_stored_sequences(client, wid):
    """The picture's b_n − a_n − n, read off the P-positions in the window,
    against the stored sequences a and b − a (the slow, obvious way)."""
    from catalog.api.pages import deviations_in_window

    n = 300
    response, parsed = page(client, f"/{wid}?n={n}")  # fills and stores up to n
    assert "plot-deviations" in parsed.svgs
    seq = f"/api/v1/entries/{wid}/sequences"
    a = client.get(f"{seq}/a").get_json()["terms"]
    gap = client.get(f"{seq}/b-a").get_json()["terms"]
    expected = []
    for i, (low, diff) in enumerate(zip(a, gap, strict=False)):
        if low + diff >= n:
            break
        expected.append(diff - i)
    found = deviations_in_window(p_positions(definition(wid), n), n)
    assert found == expected and len(found) > 50
    assert f"for the first {len(found)} upper" in response.get_data(as_text=True)


def test_an_endless_dictionary_is_cut_short(client):
    """(3,5)-Maharaja has no finite dictionary: the page shows its first 40
    words and says how many the API's document has."""
    from catalog.api.words import DICTIONARY_ROWS

    response, parsed = page(client, "/W000006")
    doc = client.get("/api/v1/entries/W000006").get_json()
    total = len(doc["dictionary"])
    assert total > DICTIONARY_ROWS
    text = response.get_data(as_text=True)
    assert f"The first {DICTIONARY_ROWS} of {total} words" in text
    table = text[text.index('<table class="dictionary">') :]
    table = table[: table.index("</table>")]
    assert table.count("<tr>") == DICTIONARY_ROWS + 1  # and the header


def test_forced_box_shown_as_a_box(client):
    response, _ = page(client, "/W000015")
    text = response.get_data(as_text=True)
    assert "the 100×100 box from (0, 0)" in text
    assert "&#34;P_boxes&#34;: [[0, 0, 100, 100]]" in text


@pytest.mark.parametrize("q", ['"><script>alert(1)</script>', "<b>nim</b> wythoff"])
def test_what_the_user_searched_for_is_escaped(client, q):
    """The query is shown back in the search box and on the results page."""
    response = client.get("/search", query_string={"q": q})
    body = response.get_data(as_text=True)
    assert "<script>" not in body and "<b>" not in body
    assert "&lt;script&gt;alert(1)" in body or "&lt;b&gt;nim" in body
    assert 'value="&#34;&gt;' in body or 'value="&lt;b&gt;nim' in body


def test_a_long_list_of_cross_references_is_cut_short(fresh_app, monkeypatch):
    """A class of thousands of equal games (adjoinable pairs) shows its
    first 200 on the page and says where the rest are."""
    import catalog.service.entries as entries

    monkeypatch.setattr(entries, "xref_ids", lambda _session, _n: list(range(2, 260)))
    client = fresh_app.test_client()
    response, _ = page(client, "/W000001")
    text = response.get_data(as_text=True)
    assert 'href="/W000201"' in text and 'href="/W000202"' not in text
    assert "and 58 more" in text and 'href="/api/v1/entries/W000001"' in text
    monkeypatch.setattr(entries, "xref_ids", lambda _session, _n: list(range(2, 202)))
    text = page(client, "/W000001")[0].get_data(as_text=True)
    section = text.split('id="xrefs"')[1].split("</section>")[0]
    assert 'href="/W000201"' in section and "more" not in section
