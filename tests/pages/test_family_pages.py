"""``/families`` and ``/families/{name}``: the family pages render the
documents of ``/api/v1/families`` and its tables, on both databases."""

from __future__ import annotations

import json
import re
import shutil
from urllib.parse import quote

import pytest

from catalog import service
from tests.pages.test_pages import page
from tests.store.narrowed import small_families


@pytest.fixture(scope="module")
def seeded(app, tmp_path_factory):
    """The module's catalog with the members of box, a, b <= 3."""
    store = app.extensions["catalog"]
    store.families = small_families(tmp_path_factory.mktemp("families"), box=3)
    service.seed_families(store, ["box"])
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            service.show(store, f"box.{a}.{b}")  # computes its invariants
    return store


def cells(text: str) -> list[list[str]]:
    """The body cells of the page's grid, row by row."""
    grid = text[text.index('<table class="grid">') :]
    grid = grid[: grid.index("</table>")]
    body = grid[grid.index("<tbody>") :]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("</tr>")[:-1]]


def test_the_families_page_lists_every_family(client, seeded):
    response, _ = page(client, "/families")
    text = response.get_data(as_text=True)
    for family in service.families(seeded)["families"]:
        assert f'href="/families/{family["name"]}"' in text


def test_the_box_page_shows_theorem_2_as_the_api_table(client, seeded):
    response, _ = page(client, "/families/box")
    table = service.table(seeded, "box", "offset")
    expected = [
        ["" if v is None else ",".join(map(str, v)) for v in row]
        for row in table["cells"]
    ]
    assert cells(response.get_data(as_text=True)) == expected
    # Theorem 2: Box(a,b) has offset (b - 1, a - 1).
    for a, row in zip(table["rows"]["values"], expected, strict=True):
        for b, value in zip(table["columns"]["values"], row, strict=True):
            assert value == f"{b - 1},{a - 1}"


def test_members_link_to_their_entry_pages(client, seeded):
    response, _ = page(client, "/families/box?invariant=id")
    text = response.get_data(as_text=True)
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            assert f'href="/box.{a}.{b}"' in text
    response, _ = page(client, "/box.2.3")  # the label is an address too
    text = response.get_data(as_text=True)
    assert '<a href="/box.2.3">box.2.3</a>' in text
    assert '<a href="/families/box">box</a>' in text


def test_a_family_without_two_free_parameters_fixes_the_first(client, seeded):
    response, _ = page(client, "/families/cell")
    assert "Fixed: kind=P." in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/families/nope", 404),
        ("/families/box?invariant=bogus", 400),
        ("/families/box?invariant=deviation", 422),
        ("/families/box?invariant=offset&fix=zz%3D1", 422),
    ],
)
def test_bad_family_pages_are_html_errors(client, seeded, url, status):
    response, _ = page(client, url, status)
    assert "<h1>Error" in response.get_data(as_text=True)


def test_member_names_are_escaped_on_the_family_page(fresh_app, tmp_path):
    """A member whose name tries to inject markup is shown as text on its
    family's page (the escaping test of entry pages did not cover it)."""
    from sqlalchemy import update

    from catalog.store.tables import entries
    from tests.pages.test_pages import HOSTILE

    store = fresh_app.extensions["catalog"]
    store.families = small_families(tmp_path, box=2)
    service.seed_families(store, ["box"])
    number = int(service.show(store, "box.1.2")["id"][1:])
    with store.engine.begin() as connection:
        connection.execute(
            update(entries).where(entries.c.id == number).values(name=HOSTILE)
        )
    response, _ = page(fresh_app.test_client(), "/families/box")
    text = response.get_data(as_text=True)
    assert "<script" not in text
    assert "&lt;script&gt;alert(" in text


def test_what_the_user_fixed_is_escaped_on_the_family_page(client, seeded):
    """``fix`` values are echoed in the form's hidden fields, in "Fixed:"
    and in why there is no table: as text, never as markup or an attribute's
    end."""
    from tests.pages.test_pages import HOSTILE

    response, _ = page(client, f"/families/box?fix=a%3D{quote(HOSTILE)}")
    text = response.get_data(as_text=True)
    assert "<script" not in text
    shown = "a=&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"
    assert f'name="fix" value="{shown}' in text
    assert f"Fixed: {shown}" in text
    assert "No table: --fix a: &#39;&lt;script&gt;alert(&#34;x&#34;)" in text


def test_a_family_files_texts_are_escaped(fresh_app, tmp_path):
    """A family file's title, paper and constraints are text: markup in a
    catalog's own family files (or a comparison in a constraint) is shown
    as written on the families page and the family's page."""
    from catalog.families import families_dir, load_families
    from tests.pages.test_pages import HOSTILE

    folder = tmp_path / "families"
    shutil.copytree(families_dir(), folder)
    path = folder / "box.json"
    data = json.loads(path.read_text("utf-8"))
    data["parameters"][0]["max"] = data["parameters"][1]["max"] = 2
    data.update(title=HOSTILE, paper=HOSTILE + " paper", constraints=["a <= b"])
    path.write_text(json.dumps(data), "utf-8")
    store = fresh_app.extensions["catalog"]
    store.families = load_families(folder)
    client = fresh_app.test_client()
    for url in ("/families", "/families/box"):
        text = page(client, url)[0].get_data(as_text=True)
        assert "<script" not in text, url
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in text, url
        assert "a &lt;= b" in text, url
    text = page(client, "/families/box")[0].get_data(as_text=True)
    assert "<title>&lt;script&gt;" in text and "Paper: &lt;script&gt;" in text


@pytest.mark.parametrize(
    ("family", "offered", "absent"),
    [
        ("box", {"offset", "defects"}, {"deviations", "adjoined_moves"}),
        ("maharaja", {"deviations", "adjoined_moves"}, {"offset", "defects"}),
    ],
)
def test_a_family_menu_offers_only_the_invariants_its_members_have(
    client, family, offered, absent
):
    html = client.get(f"/families/{family}").get_data(as_text=True)
    menu = html[html.index('<select id="fam-inv"') : html.index("</select>")]
    options = set(re.findall(r"<option[^>]*>([^<]+)</option>", menu))
    assert offered <= options
    assert not absent & options
    for option in options - {"id"}:
        answer = client.get(f"/families/{family}?invariant={option}")
        assert answer.status_code == 200, option


def test_every_menu_choice_of_every_family_page_is_a_page(client, seeded):
    """nimhoff's menu led to a 422 for every choice (one free parameter): each
    choice, with the form's hidden fields, answers a page with a table."""
    for family in service.families(seeded)["families"]:
        url = f"/families/{family['name']}"
        html = page(client, url)[0].get_data(as_text=True)
        menu = html[html.index('<select id="fam-inv"') : html.index("</select>")]
        options = re.findall(r"<option[^>]*>([^<]+)</option>", menu)
        hidden = re.findall(r'name="fix" value="([^"]*)"', html)
        assert options, url
        for option in options:
            query = "&".join(
                [f"invariant={option}", *(f"fix={quote(f)}" for f in hidden)]
            )
            text = page(client, f"{url}?{query}")[0].get_data(as_text=True)
            assert '<table class="grid">' in text, (url, option)


def test_a_one_parameter_family_shows_its_members_in_a_column(client, seeded):
    text = page(client, "/families/nimhoff?invariant=symmetric")[0].get_data(
        as_text=True
    )
    doc = service.table(seeded, "nimhoff", "symmetric")
    assert doc["columns"] == {"name": "invariant", "values": ["symmetric"]}
    assert cells(text) == [
        ["yes" if v else "no" if v is False else "" for v in row]
        for row in doc["cells"]
    ]
    # Each row's head is its member, linked: Wythoff's Nim among them.
    assert '<a href="/nimhoff.1-0.0-1.1-1">(1,0) (0,1) (1,1)</a>' in text
    assert "of each member in the catalog, by rays" in text
