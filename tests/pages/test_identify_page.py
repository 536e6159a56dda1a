"""The page /identify: the form, the answer for pairs and for a grid, what
the user typed echoed escaped, bad input as a 400 page."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.api.conftest import make_app
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded
from tests.pages.htmlcheck import Page


@pytest.fixture(scope="module", params=BACKENDS)
def app(request, tmp_path_factory):
    """The pages on a seeded catalog whose requests may search for a minute:
    the answers checked are exact ones, which a loaded machine must not cut."""
    folder = tmp_path_factory.mktemp("identify-page")
    url = new_database_url(request.param, request, folder, seeded)
    app = make_app(url, False, INLINE_SECONDS=60)
    yield app
    app.extensions["catalog"].dispose()


def check_html(body):
    parsed = Page(body)
    assert parsed.problems() == []
    assert parsed.scripts == 0


def page(client, **args):
    return client.get("/identify?" + urlencode(args) if args else "/identify")


def test_the_empty_form(client):
    response = page(client)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert '<textarea id="id-data" name="data"' in body
    assert 'id="answer"' not in body
    check_html(body)


def test_pairs_and_the_same_grid_give_the_same_answer(client):
    pairs = page(client, data="0,0 1,2 2,1 3,5 5,3").get_data(as_text=True)
    grid = page(client, data="...P..\n......\n.....P\n.P....\n..P...\nP.....")
    grid_text = grid.get_data(as_text=True)
    for body in (pairs, grid_text):
        assert "Smallest rule sets (size 2)" in body
        assert '= <a href="/W000001">W000001</a>' in body
        assert body.count('class="plot') >= 2  # the data, and the game's
        check_html(body)


def test_beatty_data_show_star_of_the_beatty_game(client):
    """The Beatty pairs of √2 below 60: ⋆ of the Beatty game of √2 (size 1)
    and 2-Wythoff (size 2, one cone), each picture the data's."""
    from catalog.compute.beatty import BeattyPairs
    from catalog.games.quadratic import parse

    cells = BeattyPairs(parse("sqrt(2)")).p_positions(60).tolist()
    data = " ".join(f"{x},{y}" for x, y in cells)
    body = page(client, data=data, n="60", limit="2").get_data(as_text=True)
    assert "Smallest rule sets (size 1)" in body
    assert "⋆ of the Beatty game of α = sqrt(2)" in body
    assert "(size 2) rays (0,1) (1,0) 1 cone" in " ".join(body.split())
    assert body.count('class="plot') >= 3 and "differs from the data" not in body
    check_html(body)


def test_an_altered_game_rings_its_forced_cells(client):
    """Misère Wythoff: no invariant game, the maximal game still named, and
    the altered game's picture rings its forced N cell (0, 0)."""
    response = page(client, data="0,1 1,0 2,2 3,5 5,3 4,7 7,4", n="8", limit="1")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "No invariant game has them: even the maximal game (rays" in body
    assert "forced N (0,0)" in body and '= <a href="/W000002">W000002</a>' in body
    assert "altered game 1, its 1 forced cell ringed" in body
    assert body.count('<circle class="forced" cx="0" cy="0"') == 1
    assert "differs from the data" not in body
    assert "The sizes listed are the least" in body
    check_html(body)


def test_what_the_user_typed_is_escaped(client):
    text = "0,0 1,2 2,1\n# </textarea><script>alert(1)</script>"
    body = page(client, data=text, n="3").get_data(as_text=True)
    assert "<script>" not in body
    assert "&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_bad_input_is_a_400_page_naming_the_field(client):
    for args, message in [
        ({"data": "0,0 1,x"}, "data: line 1"),
        ({"data": "P.\n.P.\n"}, "data: line 2 has 3 cells"),
        ({"data": "0,0", "n": "999"}, "n: must be at most 256"),
        ({"data": "0,0", "limit": "0"}, "limit: must be at least 1"),
        ({"data": "<b>0,0</b>"}, "data: line 1"),
    ]:
        response = page(client, **args)
        assert response.status_code == 400, args
        body = response.get_data(as_text=True)
        assert message in body, (args, body[-400:])
        assert "<b>0,0" not in body
