"""What the command line loads and how it prints.

``wythoff --help`` must not import numba, SQLAlchemy or numpy, and reading
a stored entry must not import numba, Flask or Alembic: each costs a large
part of a second at every start (``benchmarks/cli.py`` measures the times).
Nor the compute layer (sweeps, cost model, families, solvers, the job
queue's table): together they cost ``show`` and ``is-p`` about a third of
their start. Nor, for ``show`` and ``is-p``, the ORM (``sqlalchemy.orm``
and the models mapped with it): a fifth of a second; they read with Core
statements on :mod:`catalog.store.tables`.
"""

import ast
import json
import subprocess
import sys

import pytest

from catalog import service
from catalog.cli.main import cli
from catalog.config import Settings

HEAVY = ("numba", "flask", "alembic")

#: Runs each command of argv[1] (a JSON list of argument lists) in a child
#: forked once the CLI is imported, as a fresh ``wythoff ARGS`` would start;
#: writes ``{"ARGS": [modules the child had]}`` to argv[2].
PROBE = """
import json, os, sys, traceback
from catalog.cli.main import cli

found = {}
for args in json.loads(sys.argv[1]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        status = 0
        try:
            cli(args, standalone_mode=False)
        except BaseException:
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        with os.fdopen(write, "w") as pipe:
            json.dump(sorted(sys.modules), pipe)
        os._exit(status)
    os.close(write)
    with os.fdopen(read) as pipe:
        modules = json.load(pipe)
    if os.waitpid(pid, 0)[1] != 0:
        sys.exit(f"wythoff {' '.join(args)} failed")
    found[" ".join(args)] = modules
with open(sys.argv[2], "w") as out:
    json.dump(found, out)
"""


def probe(commands, folder):
    """The modules that each ``wythoff ARGS`` of ``commands`` imported, by
    ``"ARGS"``: one process, which forks a fresh start for each command."""
    report = folder / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(commands), str(report)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(report.read_text())


def among(modules, names):
    """Those of ``names`` that ``modules`` holds, a package with its
    submodules (``sqlalchemy.orm`` stands for ``sqlalchemy.orm.session``)."""
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


def test_help_imports_neither_numba_nor_the_database_layer(tmp_path):
    found = probe([["--help"], ["show", "--help"]], tmp_path)
    assert among(found["--help"], ("numba", "numpy", "sqlalchemy", "flask")) == []
    assert among(found["show --help"], ("numba", "numpy", "sqlalchemy")) == []


#: Prints the modules ``wythoff --help`` loads beyond ``import click``
#: (``repr``: importing json would hide it).
HELP_PROBE = """
import sys
import click

before = set(sys.modules)
from catalog.cli.main import cli

try:
    cli(["--help"], standalone_mode=False)
except SystemExit:
    pass
print(sorted(set(sys.modules) - before))
"""


def test_help_loads_the_command_line_and_click_s_help_formatter_alone():
    """Every module ``--help`` adds to ``import click`` costs its start:
    the standard library's too (platformdirs with tempfile and random,
    subprocess, csv, json, shutil with lzma and bz2 were a third of
    what it added)."""
    done = subprocess.run(
        [sys.executable, "-c", HELP_PROBE], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    added = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    ours = [m for m in added if m == "catalog" or m.startswith("catalog.")]
    assert set(ours) <= {
        "catalog",
        "catalog.cli",
        *(f"catalog.cli.{m}" for m in ("main", "params", "output")),
        *(f"catalog.cli.{m}" for m in ("reading", "theory", "writing", "admin")),
        *(f"catalog.cli.{m}" for m in ("families", "jobs")),
        "catalog.config",  # the limits the help text names
        "catalog.errors",
        "catalog.inputs",
    }
    # click's help formatter, and what a frozen dataclass (the settings) needs.
    needed = {"click._textwrap", "textwrap", "gc", "dataclasses", "copy"}
    # click's translations look up the locale when an option is declared.
    needed |= {"locale", "_locale"}
    assert set(added) - set(ours) <= needed


@pytest.fixture(scope="module")
def stored_url(tmp_path_factory):
    """A catalog (SQLite) whose seeds are stored, Wythoff's Nim and Maharaja
    Nim computed up to n = 100 and the shown entries' invariants stored: what
    ``wythoff seed --n 100`` leaves for them, for a tenth of its work."""
    url = f"sqlite:///{tmp_path_factory.mktemp('startup') / 'catalog.sqlite3'}"
    store = service.Store(Settings.load(url))
    try:
        service.seed(store)
        for wid in ("W000001", "W000004"):
            service.compute(store, wid, 100)
        for wid in ("W000001", "W000004", "W000017"):
            service.entry_invariants(store, service.entry_number(store, wid))
    finally:
        store.dispose()
    return url


#: Reading what is stored: an entry's document and a position's outcome
#: (in closed form, from the stored table, by a far-out theorem).
SHOW_AND_IS_P = [
    "show W000001",
    "show maharaja.1.2",
    "show W000004",
    "is-p W000001 5 9",
    "is-p W000004 3 1",
    f"is-p W000001 {10**40} 3",
]
READS = [*SHOW_AND_IS_P, "positions W000004 --n 50", "list --limit 5"]
#: Then past what is stored, in this order: a fill (no kernel below its
#: threshold), then the kernel.
COMPUTES = ["positions W000004 --n 150", "compute W000004 --n 300"]


@pytest.fixture(scope="module")
def loaded(stored_url, tmp_path_factory):
    """The modules each command of :data:`READS` and :data:`COMPUTES`
    imported on the stored catalog, by command."""
    commands = [[*c.split(), "--db", stored_url] for c in READS + COMPUTES]
    found = probe(commands, tmp_path_factory.mktemp("probe"))
    return {c: found[f"{c} --db {stored_url}"] for c in READS + COMPUTES}


@pytest.mark.parametrize("command", READS)
def test_reading_stored_entries_imports_no_kernel_web_or_migrations(loaded, command):
    assert among(loaded[command], HEAVY) == []


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
    "command",
    ["show W000001", "show W000004", "is-p W000001 5 9", f"is-p W000001 {10**40} 3"],
)
def test_reading_stored_entries_imports_no_compute_layer(loaded, command):
    assert among(loaded[command], COMPUTE) == []


#: What ``show`` and ``is-p`` on a stored entry do not need besides: the
#: ORM, the models mapped with it, the writes' repository and the
#: invariants' and far-out theorems of other games than the one read.
ORM = (
    "sqlalchemy.orm",
    "catalog.store.models",
    "catalog.store.repository",
    "catalog.store.entries",
)


@pytest.mark.parametrize("command", SHOW_AND_IS_P)
def test_show_and_is_p_on_stored_entries_import_no_orm(loaded, command):
    assert among(loaded[command], ORM) == []


def test_is_p_in_closed_form_reads_no_entry_document_nor_theory(loaded):
    # Wythoff's Nim: one statement for the key and the extent, then the
    # closed form; neither the document's reads nor other games' theorems.
    unneeded = (
        "catalog.service.entries",
        "catalog.compute.invariants",
        "catalog.compute.dictionary",
        "catalog.compute.offsets",
    )
    assert among(loaded["is-p W000001 5 9"], unneeded) == []


def test_the_compute_layer_loads_when_a_command_needs_it(loaded):
    # The probe is real: past the stored table, a fill runs, and writes
    # with the ORM.
    found = loaded["positions W000004 --n 150"]
    assert "catalog.store.fill" in among(found, COMPUTE)
    assert "catalog.families" not in among(found, COMPUTE)
    assert among(found, ORM[:2]) == ["sqlalchemy.orm", "catalog.store.models"]


def test_the_kernel_is_compiled_when_a_command_needs_it(loaded):
    # The probe is real: computing past what is stored loads numba.
    assert among(loaded["compute W000004 --n 300"], HEAVY) == ["numba"]


#: What ``wythoff add`` on a migrated catalog does not need: numpy, the
#: ORM and the models, the compute layer, the reading service, Alembic
#: (``benchmarks/cli.py`` times it on a catalog of every family).
NOT_FOR_ADD = (
    "numpy",
    "sqlalchemy.orm",
    "catalog.store.models",
    "catalog.store.repository",
    "catalog.store.positions",
    "catalog.compute.closed",
    "catalog.service.positions",
    "catalog.service.entries",
    *HEAVY,
    *[m for m in COMPUTE if m != "catalog.families"],
)


def test_add_imports_neither_numpy_nor_the_orm_nor_the_compute_layer(
    stored_url, tmp_path
):
    new = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 977]]}'
    member = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[3, 7], [7, 3]]}'
    commands = [
        ["add", "--definition", new, "--db", stored_url],
        ["add", "--definition", WYTHOFF_REORDERED, "--db", stored_url],
        ["add", "--definition", member, "--db", stored_url],
    ]
    found = probe(commands, tmp_path)
    for args in commands:
        assert among(found[" ".join(args)], NOT_FOR_ADD) == []
    # The probe is real: a new game that is a family member got its labels.
    assert "catalog.families" in found[" ".join(commands[2])]


WYTHOFF_REORDERED = '{"rays": [[1, 1], [0, 1], [1, 0], [1, 0]]}'


def test_add_migrates_a_new_file_and_prints_the_same_json(tmp_path):
    url = f"sqlite:///{tmp_path / 'new' / 'catalog.sqlite3'}"
    game = '{"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 9]]}'
    found = probe([["add", "--definition", game, "--db", url, "--json"]], tmp_path)
    # The first use of a file migrates it (Alembic), then adds.
    assert among(found[f"add --definition {game} --db {url} --json"], HEAVY) == [
        "alembic"
    ]
    runs = [
        subprocess.run(
            [sys.executable, "-m", "catalog.cli", "add", "--json", "--db", url]
            + ["--definition", text],
            capture_output=True,
            text=True,
        )
        for text in (
            game,
            WYTHOFF_REORDERED,
            '{"moves": [[2, 9], [2, 9]], "rays": [[1, 1], [0, 1], [1, 0]]}',
        )
    ]
    assert [r.returncode for r in runs] == [0, 0, 0]
    assert [r.stderr for r in runs] == ["", "", ""]
    assert [r.stdout for r in runs] == [
        '{"id": "W000001", "created": false}\n',
        '{"id": "W000002", "created": true}\n',
        '{"id": "W000001", "created": false}\n',
    ]


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
def test_text_output_reads_as_text(runner, stored_url, args):
    # Rendering is the point here, not the database: one stored SQLite file.
    result = runner.invoke(cli, [*args, "--db", stored_url])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "None" not in text and "True" not in text and "False" not in text
    assert "[[" not in text and '{"' not in text and "[{" not in text
    # The same command's JSON is one document.
    as_json = runner.invoke(cli, [*args, "--db", stored_url, "--json"])
    assert isinstance(json.loads(as_json.stdout), dict)


#: Loads the module catalog.service.positions before anything asks the
#: package for its names, then prints what the package's ``positions`` is.
POSITIONS_FIRST = """
import sys
import catalog.service.positions
from catalog import service

module = sys.modules["catalog.service.positions"]
print(service.positions is module.positions, service.is_p is module.is_p)
print(sorted(n for n in service.__all__ if not hasattr(service, n)))
"""


def test_the_service_s_positions_stays_a_function_when_its_module_loads_first():
    # The package imports its names on first use, and loading a submodule
    # sets it as an attribute of its package: the function positions, not
    # the module of the same name, must be what service.positions is.
    done = subprocess.run(
        [sys.executable, "-c", POSITIONS_FIRST], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True True", "[]"]
