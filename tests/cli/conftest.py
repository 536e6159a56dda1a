"""Catalogs of the command-line tests, each built once and then copied or
shared, and the shipped families loaded once (:mod:`tests.cli.racing`).

- :func:`shared_url`: one copy of the seeded catalog per module and backend,
  for the tests that only read it or check that they wrote nothing (a test
  that writes takes ``seeded_url``, a copy of its own);
- :func:`computed`: a copy, for one test, of a catalog that
  ``wythoff seed --n 200`` filled, built once per session and backend, with
  that seed's report.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy.engine import make_url

import catalog.families
from catalog.cli.main import cli
from tests.cli import racing
from tests.conftest import BACKENDS, new_database_url
from tests.databases import seeded

#: Imported by the fork server only (--doctest-modules would import it here).
collect_ignore = ["warmed.py"]

#: The columns ``seed --n`` computes in :func:`computed_catalog`.
SEEDED_N = 200
#: The report of the seed that built each backend's computed template.
REPORTS: dict[str, dict[str, Any]] = {}


def command(runner: CliRunner, url: str) -> Callable[..., Any]:
    """Run ``wythoff … --json --db URL``; return (exit code, parsed stdout,
    stderr). ``run.url`` is the database's URL."""

    def run(*args: str) -> tuple[int, Any, str]:
        name, *rest = args
        result = runner.invoke(cli, [name, "--json", "--db", url, *rest])
        out = json.loads(result.stdout) if result.exit_code == 0 else None
        return result.exit_code, out, result.stderr

    run.url = url  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="module", autouse=True)
def shipped_families_once() -> Iterator[None]:
    """Every store of the module's tests shares one expanded FamilySet."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalog.families, "load_families", racing.load_families)
        yield


def computed_catalog(url: str) -> None:
    """A fresh catalog after ``wythoff seed --n 200`` (entries computed with
    their invariants); the seed's report goes to :data:`REPORTS`."""
    result = CliRunner().invoke(
        cli, ["seed", "--json", "--n", str(SEEDED_N), "--db", url]
    )
    assert result.exit_code == 0, result.stderr
    REPORTS[make_url(url).get_backend_name()] = json.loads(result.stdout)


@pytest.fixture(scope="module", params=BACKENDS)
def shared_url(request: pytest.FixtureRequest, tmp_path_factory) -> str:
    """A copy of the seeded catalog (nothing computed) shared by the
    module's tests of one backend."""
    folder = tmp_path_factory.mktemp("shared")
    return new_database_url(request.param, request, folder, seeded)


@pytest.fixture
def shared(runner: CliRunner, shared_url: str) -> Callable[..., Any]:
    """``wythoff`` on the module's shared seeded catalog."""
    return command(runner, shared_url)


@pytest.fixture(params=BACKENDS)
def computed(
    request: pytest.FixtureRequest, tmp_path, runner: CliRunner
) -> tuple[Callable[..., Any], dict[str, Any]]:
    """``wythoff`` on a copy of :func:`computed_catalog`, and the report of
    the seed that built it."""
    url = new_database_url(request.param, request, tmp_path, computed_catalog)
    return command(runner, url), REPORTS[request.param]
