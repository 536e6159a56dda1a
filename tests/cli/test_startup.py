"""What the command line loads and how it prints.

``wythoff --help`` must not import numba, SQLAlchemy or numpy, and reading
a stored entry must not import numba, Flask or Alembic: each costs a large
part of a second at every start (``benchmarks/cli.py`` measures the times).
Nor the compute layer (sweeps, cost model, families, solvers, the job
queue's table): together they cost ``show`` and ``is-p`` about a third of
their start.
"""

import json
import subprocess
import sys

import pytest

from catalog.cli.main import cli

HEAVY = ("numba", "flask", "alembic")

PROBE = """
import sys
from catalog.cli.main import cli
try:
    cli({args!r}, standalone_mode=False)
finally:
    found = sorted(m for m in {modules!r} if m in sys.modules)
    print("LOADED", *found, file=sys.stderr)
"""


def loaded(args, modules, env=None):
    """The modules of ``modules`` that running ``wythoff ARGS`` imported."""
    code = PROBE.format(args=list(args), modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    line = next(t for t in done.stderr.splitlines() if t.startswith("LOADED"))
    return line.split()[1:]


def test_help_imports_neither_numba_nor_the_database_layer():
    assert loaded(["--help"], ("numba", "numpy", "sqlalchemy", "flask")) == []
    assert loaded(["show", "--help"], ("numba", "numpy", "sqlalchemy")) == []


@pytest.fixture(scope="module")
def seeded_url(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('startup') / 'catalog.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "catalog.cli", "seed", "--n", "100", "--db", url],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return url


@pytest.mark.parametrize(
    "args",
    [
        ["show", "W000001"],
        ["show", "maharaja.1.2"],
        ["is-p", "W000001", "5", "9"],
        ["is-p", "W000004", "3", "1"],
        ["positions", "W000004", "--n", "50"],
        ["list", "--limit", "5"],
    ],
)
def test_reading_stored_entries_imports_no_kernel_web_or_migrations(seeded_url, args):
    assert loaded([*args, "--db", seeded_url], HEAVY) == []


#: What reading a stored entry does not need: the sweeps and the cost model,
#: the families' machinery, the far-out solvers, the search index, the job
#: queue's table (it loads PostgreSQL's dialect) and that dialect on SQLite.
COMPUTE = (
    "catalog.compute.ptable",
    "catalog.compute.kernel",
    "catalog.compute.special_kernel",
    "catalog.compute.cost",
    "catalog.compute.farout",
    "catalog.compute.wordfarout",
    "catalog.families",
    "catalog.service.listings",
    "catalog.service.solvers",
    "catalog.store.fill",
    "catalog.store.job_model",
    "catalog.store.search",
    "sqlalchemy.dialects.postgresql",
)


@pytest.mark.parametrize(
    "args",
    [
        ["show", "W000001"],
        ["show", "W000004"],
        ["is-p", "W000001", "5", "9"],
        ["is-p", "W000001", str(10**40), "3"],
    ],
)
def test_reading_stored_entries_imports_no_compute_layer(seeded_url, args):
    assert loaded([*args, "--db", seeded_url], COMPUTE) == []


def test_the_compute_layer_loads_when_a_command_needs_it(seeded_url):
    # The probe is real: past the stored table, a fill runs.
    args = ["positions", "W000004", "--n", "150", "--db", seeded_url]
    found = loaded(args, COMPUTE)
    assert "catalog.store.fill" in found and "catalog.families" not in found


def test_the_kernel_is_compiled_when_a_command_needs_it(seeded_url):
    # The probe is real: computing past what is stored loads numba.
    args = ["compute", "W000004", "--n", "300", "--db", seeded_url]
    assert loaded(args, HEAVY) == ["numba"]


def test_db_and_json_may_come_before_the_command(runner, fresh_url):
    assert runner.invoke(cli, ["--db", fresh_url, "seed", "--n", "0"]).exit_code == 0
    before = runner.invoke(
        cli, ["--json", "--db", fresh_url, "is-p", "W000001", "1", "2"]
    )
    after = runner.invoke(
        cli, ["is-p", "W000001", "1", "2", "--json", "--db", fresh_url]
    )
    assert before.exit_code == after.exit_code == 0
    assert json.loads(before.stdout) == json.loads(after.stdout)
    assert json.loads(before.stdout)["outcome"] == "P"


def test_the_commands_db_wins_over_the_groups(runner, fresh_url, tmp_path):
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    runner.invoke(cli, ["--db", other, "seed", "--n", "0"])
    result = runner.invoke(cli, ["--db", other, "list", "--json", "--db", fresh_url])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["entries"] == []  # fresh_url: nothing seeded


@pytest.mark.parametrize(
    "args",
    [
        ["show", "W000001"],
        ["show", "W000004"],
        ["show", "W000017"],
        ["search", "1,3,4,6", "--limit", "3"],
        ["search", "keyword:maharaja", "--limit", "2"],
        ["search", "9,9,9,9,9"],
        ["list", "--limit", "4"],
        ["grundy", "W000001", "--n", "4"],
        ["is-p", "W000001", "3", "5"],
        ["positions", "W000004", "--n", "9"],
        ["families"],
        ["add", "--definition", '{"rays": [[1, 0], [0, 1], [2, 2]]}'],
    ],
)
def test_text_output_reads_as_text(runner, seeded_url, args):
    # Rendering is the point here, not the database: one seeded SQLite file.
    result = runner.invoke(cli, [*args, "--db", seeded_url])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "None" not in text and "True" not in text and "False" not in text
    assert "[[" not in text and '{"' not in text and "[{" not in text
    # The same command's JSON is one document.
    as_json = runner.invoke(cli, [*args, "--db", seeded_url, "--json"])
    assert isinstance(json.loads(as_json.stdout), dict)
