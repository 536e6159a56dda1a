"""The OpenAPI document covers every route and its parameters, and
schemathesis finds no server error or schema violation."""

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import schemathesis

from catalog import service
from catalog.api import DEFAULTS, create_app
from catalog.api.openapi import document
from tests.api.conftest import make_app, serve
from tests.conftest import new_database_url
from tests.databases import seeded


def api_rules(app):
    return [r for r in app.url_map.iter_rules() if r.rule.startswith("/api/v1/")]


def test_every_route_is_documented_and_nothing_else(client, app):
    paths = document(app.config)["paths"]
    routes = {re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r.rule) for r in api_rules(app)}
    assert routes == set(paths)
    for rule in api_rules(app):
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        documented = {
            p["name"]
            for operation in paths[path].values()
            for p in operation.get("parameters", [])
        }
        assert set(rule.arguments) <= documented, path
    assert client.get("/api/v1/openapi.json").get_json() == document(app.config)


def test_document_is_openapi_3_1():
    doc = document(DEFAULTS)
    assert doc["openapi"].startswith("3.1")
    schemathesis.openapi.from_dict(doc)  # raises on an invalid document


@pytest.fixture(scope="module")
def fuzz_app(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    url = new_database_url("sqlite", request, folder, seeded)
    app = make_app(url, False, INLINE_SECONDS=0.2)
    yield app
    app.extensions["catalog"].dispose()


#: What a request valid by the document may get: an answer, or a refusal
#: that is not about its form: no such entry (404), a request that matches
#: every parameter's rule but not together or not for this catalog or this
#: entry, or over the work budget (422), a quota or busy compute (429), a
#: computation cut at its deadline (503, Retry-After). Never a 400: the
#: document states every rule of a parameter's form.
CONFIG = """[checks.positive_data_acceptance]
expected-statuses = ["2xx", "404", "422", "429", "503"]
"""
#: Examples a phase draws per operation, and the seeds of the run (each seed
#: a different set of requests; every one passed at 50 examples, see
#: docs/testing.md).
EXAMPLES = 5
SEED = 42


@pytest.mark.timeout(600)
def test_api_conforms_to_its_document(fuzz_app, tmp_path):
    """The issue's command, ``st run /api/v1/openapi.json -c all -m all``:
    every check, every phase (examples, coverage, fuzzing and stateful),
    positive and negative data, against a live server. It reports nothing
    but the documented statuses: a schema-valid request is never a 400 and
    a schema-invalid one never succeeds."""
    (tmp_path / "schemathesis.toml").write_text(CONFIG)
    url, stop = serve(fuzz_app)
    try:
        done = subprocess.run(
            [
                str(Path(sys.executable).with_name("st")),
                "--config-file",
                str(tmp_path / "schemathesis.toml"),
                "--no-color",
                "run",
                f"{url}/api/v1/openapi.json",
                "--checks",
                "all",
                "--mode",
                "all",
                "--phases",
                "examples,coverage,fuzzing,stateful",
                "--max-examples",
                str(EXAMPLES),
                "--seed",
                str(SEED),
                "--workers",
                "1",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=570,
        )
    finally:
        stop()
    report = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in done.stdout, report


def test_create_app_takes_a_mapping(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"})
    assert app.extensions["catalog"].settings.database_url.endswith("x.sqlite3")
    app.extensions["catalog"].dispose()


#: Values for the path parameters of every route, to reach its query checks.
PATH_VALUES = {"wid": "W000001", "x": "3", "y": "5", "i": "1", "j": "2", "name": "a"}
#: Values for the required query parameters that are not numbers.
QUERY_VALUES = {"q": "1,3,4,6"}


def _url(path: str, query: dict[str, object]) -> str:
    url = re.sub(r"{(\w+)}", lambda m: PATH_VALUES[m.group(1)], path)
    return url + "?" + "&".join(f"{k}={v}" for k, v in query.items())


def test_documented_maxima_are_what_the_server_enforces(request, tmp_path):
    """Each integer query parameter's documented maximum, read from the
    app's configuration, is accepted and one more is refused with 400."""
    app = make_app(
        new_database_url("sqlite", request, tmp_path, seeded),
        False,
        MAX_GRUNDY_N=12,
        MAX_PAGE_SIZE=30,
        INLINE_SECONDS=0.001,
    )
    service.compute(app.extensions["catalog"], "W000001", 100)  # its sequences
    client = app.test_client()
    doc = client.get("/api/v1/openapi.json").get_json()
    checked = {}
    for path, item in doc["paths"].items():
        params = item.get("get", {}).get("parameters", [])
        required = {
            p["name"]: QUERY_VALUES.get(p["name"], p["schema"].get("minimum", 1))
            for p in params
            if p["in"] == "query" and p["required"]
        }
        for p in params:
            top = p["schema"].get("maximum")
            if p["in"] != "query" or top is None:
                continue
            over = client.get(_url(path, {**required, p["name"]: top + 1}))
            assert over.status_code == 400, (path, p["name"], over.get_json())
            assert str(top) in over.get_json()["error"], (path, p["name"])
            at = client.get(_url(path, {**required, p["name"]: top}))
            # At the maximum the parameter is valid; the work budget may
            # still refuse the request (422), but never as bad input.
            assert at.status_code in (200, 422), (path, p["name"], at.get_json())
            checked[(path, p["name"])] = top
    assert checked[("/api/v1/entries/{wid}/grundy", "n")] == 12
    assert checked[("/api/v1/entries/{wid}/p-positions", "limit")] == 30
    assert len(checked) >= 8
    app.extensions["catalog"].dispose()


def _schema_of(doc, path, name):
    (found,) = [p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == name]
    return found["schema"]


#: Requests schemathesis found answered 400 although the document allowed
#: them (issue 42), and the edges beside them: (route, parameter, value,
#: the URL). The document and the server must agree on each.
FOUND = [
    ("/api/v1/entries/{wid}/bitstring", "wid", "a." + "b" * 198, None),
    ("/api/v1/entries/{wid}/bitstring", "wid", "a." + "b" * 199, None),
    ("/api/v1/entries/{wid}/grundy", "wid", "W000017", "?n=2"),
    ("/api/v1/entries/{wid}/grundy", "wid", "W000023", "?n=2"),
    ("/api/v1/entries/{wid}/positions/{x}/{y}", "y", "10000000", None),
    ("/api/v1/entries", "keyword", " \t", None),
    ("/api/v1/entries", "family", "\u3000", None),
    ("/api/v1/entries", "q", "\x1c".join("abcdefghijklmnopq"), None),
    ("/api/v1/entries", "where", "defects=1\n2", None),
    ("/api/v1/entries", "where", "\ufeffdefects=1", None),
]


@pytest.mark.parametrize(("path", "name", "value", "query"), FOUND)
def test_what_the_document_allows_is_never_a_400(client, path, name, value, query):
    """A value the document's schema allows gets no 400 (a 422 when it
    cannot be processed); one it refuses gets a 400."""
    import jsonschema  # schemathesis's own validator of the document

    doc = client.get("/api/v1/openapi.json").get_json()
    schema = _schema_of(doc, path, name)
    if schema.get("type") == "array":
        schema = schema["items"]
    allowed = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.FormatChecker()
    ).is_valid(int(value) if schema["type"] == "integer" else value)
    values = {"wid": "W000012", "x": "3", "y": "5", name: quote(value, safe="")}
    url = re.sub(r"{(\w+)}", lambda m: values[m.group(1)], path)
    if query is not None:
        url += query
    elif "{" + name + "}" not in path:
        url += f"?{name}={quote(value, safe='')}"
    answer = client.get(url)
    assert (answer.status_code != 400) == allowed, (answer.get_json(), allowed)
    assert answer.status_code < 500


def test_a_table_games_far_positions_are_unprocessable(client):
    """x or y past a table game's computed limit is a 422 naming it: other
    games (Wythoff's Nim) answer the same coordinates exactly."""
    far = client.get("/api/v1/entries/W000012/positions/3/10000000")
    assert far.status_code == 422
    assert far.get_json() == {
        "error": "y: must be at most 9999999 for W000012: its outcomes are read "
        "from its computed table, as far as it goes"
    }
    exact = client.get("/api/v1/entries/W000001/positions/3/10000000")
    assert exact.status_code == 200
