"""tools/mutate.py's judgement of survivors: a mutant counts as equivalent
only where EQUIVALENT's text says so (a wrong match hides a survivor)."""

import difflib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate", ROOT / "tools" / "mutate.py")
assert _spec is not None and _spec.loader is not None
mutate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate)

JOBS = "catalog/store/jobs.py"


def diff(module: str, old: str, new: str) -> str:
    """The diff of one replaced line, as cosmic-ray records it."""
    source = (ROOT / module).read_text(encoding="utf-8")
    assert source.count(old) >= 1, old
    mutated = source.replace(old, new, 1)
    lines = difflib.unified_diff(
        source.split("\n"),
        mutated.split("\n"),
        fromfile="a/" + module,
        tofile="b/" + module,
        lineterm="",
    )
    return "\n".join(["--- mutation diff ---", *lines])


def test_a_text_of_several_lines_matches_its_own_loop_only():
    """``for job in []`` is harmless before ``session.expunge(job)`` (the
    session's close detaches the rows anyway) and not in the claims' loops,
    where the same slip claims nothing."""
    expunge = diff(
        JOBS,
        "    for job in jobs:\n        session.expunge",
        "    for job in []:\n        session.expunge",
    )
    assert mutate.equivalent(JOBS, expunge)
    claims = diff(
        JOBS,
        "    for job in jobs:\n        if job.claimed_by",
        "    for job in []:\n        if job.claimed_by",
    )
    assert mutate.equivalent(JOBS, claims) is None
    picked = diff(JOBS, "for job in picked:", "for job in []:")
    assert mutate.equivalent(JOBS, picked) is None


def test_a_text_of_one_line_matches_an_added_line_not_the_context():
    """A one-line text is looked for in the lines a mutant adds; the same
    text in the unchanged lines around it does not count."""
    module, (text, reason) = next(
        (m, entry)
        for m, entries in mutate.EQUIVALENT.items()
        for entry in entries
        if "\n" not in entry[0]
    )
    added = f"--- mutation diff ---\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 1; {text}\n y = 2"
    assert mutate.equivalent(module, added) == reason
    context = f"--- mutation diff ---\n@@ -1,2 +1,2 @@\n {text}\n-x = 1\n+x = 2"
    assert mutate.equivalent(module, context) is None
    assert mutate.equivalent("no/such/module.py", added) is None


#: The tables of a cosmic-ray session, as ``cosmic-ray init`` makes them.
SESSION = """
create table work_items (job_id varchar not null primary key);
create table mutation_specs (
    module_path varchar, operator_name varchar, operator_args json,
    occurrence integer, start_pos_row integer, start_pos_col integer,
    end_pos_row integer, end_pos_col integer, definition_name varchar,
    job_id varchar not null primary key references work_items (job_id));
create table work_results (
    worker_outcome varchar(9), output text, test_outcome varchar(11),
    diff text, job_id varchar not null primary key
    references work_items (job_id));
"""


def a_session(path: Path, seed: int) -> Path:
    """A session of 11 mutants of one module, its job IDs drawn anew (as
    each clone's ``cosmic-ray init`` draws them)."""
    import random
    import sqlite3

    rng = random.Random(seed)
    with sqlite3.connect(path) as db:
        db.executescript(SESSION)
        places = [(row, col, op) for row in (3, 9, 40) for col in (4, 8) for op in "ab"]
        for row, col, op in rng.sample(places[:11], 11):
            job = f"{rng.getrandbits(64):016x}"
            db.execute("insert into work_items values (?)", (job,))
            db.execute(
                "insert into mutation_specs values (?, ?, '{}', 0, ?, ?, ?, ?, 'f', ?)",
                ("m.py", op, row, col, row, col + 1, job),
            )
    return path


def mutants(path: Path) -> dict[tuple, str | None]:
    import sqlite3

    with sqlite3.connect(path) as db:
        return dict(
            ((row, col, op), outcome)
            for row, col, op, outcome in db.execute(
                "select start_pos_row, start_pos_col, operator_name, test_outcome "
                "from mutation_specs left join work_results using (job_id)"
            )
        )


def test_the_parts_of_a_run_hold_each_mutant_once_and_merge_whole(tmp_path):
    """Three clones, each with a fresh session (other job IDs, another
    order) and its part: every mutant in exactly one part, and the parts
    merged hold every mutant once, with the results each part recorded."""
    import sqlite3

    whole = mutants(a_session(tmp_path / "whole.sqlite", 0))
    parts = []
    for index in (1, 2, 3):
        path = a_session(tmp_path / f"part{index}.sqlite", index)
        assert mutate.part(path, index, 3) == 11 - len(mutants(path))
        with sqlite3.connect(path) as db:  # each part's run records its results
            db.execute(
                "insert into work_results select 'NORMAL', '', ?, '', job_id "
                "from work_items",
                (f"part {index}",),
            )
        parts.append(path)
    held = [set(mutants(path)) for path in parts]
    assert sorted(len(h) for h in held) == [3, 4, 4]
    assert set.union(*held) == set(whole) and sum(map(len, held)) == len(whole)
    assert mutate.merge(parts[0], parts[1]) == len(held[1])
    assert mutate.merge(parts[0], parts[2]) == len(held[2])
    assert mutate.merge(parts[0], parts[2]) == 0  # merged already
    merged = mutants(parts[0])
    assert set(merged) == set(whole)
    for index, h in enumerate(held, 1):
        assert {merged[m] for m in h} == {f"part {index}"}


STRINGS = mutate.string_operator()
STORE_ARGS = mutate.STRINGS[JOBS]


def string_places(module: str) -> list[tuple[int, int]]:
    """Where the string operator mutates the module, in occurrence order
    (one parse: cosmic-ray's own counting)."""
    from cosmic_ray.ast import ast_nodes, get_ast

    source = (ROOT / module).read_text(encoding="utf-8")
    operator = STRINGS.ReplaceStringConstant(**mutate.STRINGS[module])
    return [
        start
        for node in ast_nodes(get_ast(source))
        for start, _ in operator.mutation_positions(node)
    ]


@pytest.mark.parametrize(
    "example",
    STRINGS.ReplaceStringConstant.examples(),
    ids=lambda e: e.pre_mutation_code,
)
def test_the_string_operator_makes_its_examples(example):
    from cosmic_ray.mutating import mutate_code

    operator = STRINGS.ReplaceStringConstant(**example.operator_args)
    mutated = mutate_code(example.pre_mutation_code, operator, example.occurrence)
    assert mutated == example.post_mutation_code


def test_a_state_is_replaced_by_each_other_state_never_in_a_docstring():
    """``cancel`` writing ``done`` for ``failed`` (the slip no test saw) is
    one of the mutants, beside the other states and its error's XX; no
    docstring is a place, and a mutant changes its one line."""
    import ast

    from cosmic_ray.mutating import mutate_code

    source = (ROOT / JOBS).read_text(encoding="utf-8")
    places = string_places(JOBS)
    docstrings = [
        (node.body[0].lineno, node.body[0].end_lineno)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and ast.get_docstring(node) is not None
    ]
    assert len(docstrings) > 10
    assert not [p for p in places if any(a <= p[0] <= b for a, b in docstrings)]
    cancel = 'values(state="failed", error="cancelled"'
    row = source[: source.index(cancel)].count("\n") + 1
    operator = STRINGS.ReplaceStringConstant(**STORE_ARGS)
    lines = source.split("\n")
    found = []
    for occurrence, (at, _) in enumerate(places):
        if at == row:
            mutated = mutate_code(source, operator, occurrence).split("\n")
            assert mutated[: row - 1] == lines[: row - 1]
            assert mutated[row:] == lines[row:]
            found.append(mutated[row - 1].strip())
    line = lines[row - 1].strip()
    assert found == [
        line.replace('"failed"', '"queued"'),
        line.replace('"failed"', '"running"'),
        line.replace('"failed"', '"done"'),
        line.replace('"cancelled"', '"XXcancelledXX"'),
    ]


def test_only_limits_the_other_strings_to_the_named_values():
    """In a module of help and schema texts, the states and the named
    values are mutated, nothing else."""
    from cosmic_ray.mutating import mutate_code

    operator = STRINGS.ReplaceStringConstant([["a", "b"]], only=["state"])
    source = 'x = ("a", "state", "help", f"{x}")'
    assert mutate_code(source, operator, 0) == 'x = ("b", "state", "help", f"{x}")'
    assert mutate_code(source, operator, 1) == 'x = ("a", "XXstateXX", "help", f"{x}")'
    assert mutate_code(source, operator, 2) is None


def test_a_string_session_holds_the_string_operator_s_mutants_only(tmp_path):
    """``cosmic-ray init`` started as tools/mutate.py starts it finds the
    operator (an entry point would be needed otherwise), makes its mutants
    from the configured arguments, and the session keeps those alone."""
    import subprocess
    import tomllib

    from cosmic_ray.work_db import WorkDB, use_db

    table = tomllib.loads(mutate.operator_table(JOBS))
    assert table == {"cosmic-ray": {"operators": {STRINGS.OPERATOR: [STORE_ARGS]}}}
    module = tmp_path / "m.py"
    module.write_text('"""Doc."""\nstate = ("queued", "done") if x > 1 else "gone"\n')
    config, session = tmp_path / "s.toml", tmp_path / "s.sqlite"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {mutate.toml_string(str(module))}\n"
        "timeout = 10.0\nexcluded-modules = []\n"
        'test-command = "true"\n'
        '[cosmic-ray.distributor]\nname = "local"\n' + mutate.operator_table(JOBS)
    )
    subprocess.run(
        [*mutate.COSMIC_RAY, "init", str(config), str(session)], check=True, cwd=ROOT
    )
    assert mutate.drop_unkept(session, strings=True) > 0  # the core operators'
    with use_db(str(session), WorkDB.Mode.open) as db:
        specs = sorted(
            (item.mutations[0].occurrence, item.mutations[0].operator_name)
            for item in db.pending_work_items
        )
        args = {str(i.mutations[0].operator_args) for i in db.pending_work_items}
    # queued and done: three other states each; "gone": XX.
    assert specs == [(k, STRINGS.OPERATOR) for k in range(7)]
    assert args == {str(STORE_ARGS)}


@pytest.mark.parametrize("module", sorted(mutate.STRINGS))
def test_each_string_session_s_configuration_reads_as_cosmic_ray_reads_it(module):
    """cosmic-ray reads its configuration with the package toml (0.10),
    which refused the inline table of two groups that catalog/service/jobs.py
    had: its string run stopped before its first mutant."""
    import tomllib

    import toml

    text = mutate.operator_table(module)
    wanted = {"cosmic-ray": {"operators": {STRINGS.OPERATOR: [mutate.STRINGS[module]]}}}
    assert tomllib.loads(text) == wanted
    assert toml.loads(text) == wanted
