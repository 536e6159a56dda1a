"""The OpenAPI document covers every route and its parameters, and
schemathesis finds no server error or schema violation."""

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from catalog import service
from catalog.api import DEFAULTS, create_app
from catalog.api.openapi import document
from tests.api.conftest import make_app
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


schema = schemathesis.pytest.from_fixture("fuzz_schema")


#: What a request valid by the document may get: an answer, or a refusal
#: that is not about its form: no such entry (404), a request that matches
#: every parameter's rule but not together or not for this catalog, or over
#: the work budget (422), a quota or busy compute (429), a computation cut
#: at its deadline (503, Retry-After). Never a 400: the document states
#: every rule of a parameter's form.
CONFIG = SchemathesisConfig.from_str(
    "[checks.positive_data_acceptance]\n"
    'expected-statuses = ["2xx", "404", "422", "429", "503"]\n'
)


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_app):
    return schemathesis.openapi.from_wsgi(
        "/api/v1/openapi.json", fuzz_app, config=CONFIG
    )


@schema.parametrize()
@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_document(case):
    case.call_and_validate(
        checks=[
            checks.positive_data_acceptance,
            checks.not_a_server_error,
            checks.status_code_conformance,
            checks.content_type_conformance,
            checks.response_schema_conformance,
            checks.negative_data_rejection,
        ]
    )


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
