"""The documentation at /docs/: every page of docs/ rendered, every link
between them resolved, and every invariant one click from the pages that
show it."""

import re
from pathlib import Path

import pytest

from catalog.api.docs_pages import INVARIANT_PAGES, invariant_url
from catalog.compute import invariants
from catalog.store.seed import read_seed, seed_dir

DOCS = Path(__file__).resolve().parents[2] / "docs"


def address(path: Path) -> str:
    """The server's address of a page of docs/."""
    page = path.relative_to(DOCS).with_suffix("").as_posix()
    if page == "README":
        return "/docs/"
    if page.endswith("/README"):
        return "/docs/" + page.removesuffix("README")
    return "/docs/" + page


PAGES = sorted(DOCS.rglob("*.md"))


def test_docs_has_pages():
    assert len(PAGES) >= 20


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_page_renders_with_its_title_and_links_that_resolve(client, path):
    answer = client.get(address(path))
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    title = path.read_text().splitlines()[0].removeprefix("# ").strip()
    assert f"<title>{title.replace('&', '&amp;')}" in html.replace("&#39;", "'")
    for target in set(re.findall(r'href="(/docs/[^"#]*)', html)):
        assert client.get(target).status_code == 200, f"{path}: {target}"
    assert ".md" not in "".join(re.findall(r'href="([^"]*)"', html)), "a raw link"


@pytest.mark.parametrize(
    "path",
    [
        "/docs/../pyproject",
        "/docs/invariants/nope",
        "/docs/__init__",
        "/docs/invariants/Offset",
        "/docs/%2e%2e/README",
    ],
)
def test_anything_else_is_a_404_page(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"


def test_every_invariant_of_every_seed_has_its_page(app):
    names = set()
    for path in sorted(seed_dir().glob("W*.json")):
        names |= set(invariants.compute(read_seed(path)["definition"]))
    assert names >= {"offset", "defects", "deviations", "far_out"}
    with app.test_request_context():
        for name in names | set(INVARIANT_PAGES):
            url = invariant_url(name)
            assert url is not None, name
            assert (DOCS / (url.removeprefix("/docs/") + ".md")).is_file(), name


def test_an_entry_page_links_each_invariant_to_its_definition(fresh_app):
    from catalog import service

    store = fresh_app.extensions["catalog"]
    service.compute(store, "W000002", 100)
    service.entry_invariants(store, 2)
    html = fresh_app.test_client().get("/W000002").get_data(as_text=True)
    section = html[html.index('id="invariants"') :]
    links = dict(re.findall(r'<a href="(/docs/[^"]+)"[^>]*>([^<]+)</a>', section))
    assert links["/docs/invariants/offset"] == "offset"
    assert links["/docs/invariants/defects"] == "defects"


def test_a_family_table_links_its_invariant(client):
    html = client.get("/families/box?invariant=offset").get_data(as_text=True)
    assert '<a href="/docs/invariants/offset"' in html
    html = client.get("/families/maharaja?invariant=deviation").get_data(as_text=True)
    assert '<a href="/docs/invariants/deviations"' in html
