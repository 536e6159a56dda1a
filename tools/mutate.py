"""Mutation testing of the modules where a silent bug costs most.

Run: ``make mutate`` (every module below) or ``make mutate MODULE=catalog/inputs.py``.
Each module is mutated by cosmic-ray (one mutant at a time, in place, restored
after), and each mutant runs only the tests that cover that module, listed
here. A mutant that the tests do not fail *survived*; the score is killed /
(mutants − equivalent). Mutants of annotations are equivalent by
construction (``from __future__ import annotations``: they are never
evaluated) and skipped before anything runs. Sessions are kept in
``.mutation/`` (ignored by git), so an interrupted run goes on where it
stopped; ``--fresh`` starts over. The survivors are printed as diffs.

Why cosmic-ray: measured on ``catalog/inputs.py`` with its tests, it runs
each mutant as a plain command in the checkout (2.6 s a mutant here, 166
mutants in 7 min), takes a test command per module, and keeps its sessions in
SQLite; mutmut 3 copies the tree into ``mutants/`` and first maps every test
to every function with a run of the whole suite, which this layout (the
package ``catalog`` spread over four top-level folders) made it refuse.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# cosmic-ray's command line with the string operator's provider added
# (tools/string_operator.py: the checkout installs no entry point for it).
COSMIC_RAY = [sys.executable, str(ROOT / "tools" / "string_operator.py")]
SESSIONS = ROOT / ".mutation"
# Plugins are named, not discovered (PYTEST_DISABLE_PLUGIN_AUTOLOAD in run()):
# schemathesis's alone costs 4 s a start, more than most modules' tests take.
PYTEST = (
    f"{sys.executable} -m pytest -x -q -p no:cacheprovider -p pytest_timeout "
    "-p _hypothesis_pytestplugin -o addopts= --doctest-modules"
)

#: module → the tests that cover it (adding a module is one line).
MODULES: dict[str, list[str]] = {
    "catalog/inputs.py": [
        "tests/test_inputs.py",
        "tests/cli/test_bad_input.py",
        "catalog/inputs.py",
    ],
    "catalog/compute/closed.py": [
        "tests/compute/test_p_positions.py",
        "tests/compute/test_adjoinable.py",
        "catalog/compute/closed.py",
    ],
    "catalog/compute/farout.py": [
        "tests/compute/test_farout.py",
        "catalog/compute/farout.py",
    ],
    "catalog/compute/cost.py": ["tests/compute/test_cost.py"],
    "catalog/compute/identify.py": [
        "tests/compute/test_identify.py",
        "catalog/compute/identify.py",
    ],
    "catalog/compute/smallest.py": ["tests/compute/test_identify.py"],
    "catalog/store/search.py": [
        "tests/store/test_search_index.py",
        "tests/store/test_search.py",
    ],
    "catalog/store/jobs.py": [
        "tests/store/test_queue.py",
        "tests/cli/test_job_states.py",
    ],
    "catalog/service/jobs.py": [
        "tests/store/test_queue.py",
        "tests/cli/test_job_states.py",
    ],
    "catalog/store/prints.py": [
        "tests/store/test_prints.py",
        "tests/cli/test_identify.py",
        "catalog/store/prints.py",
    ],
    "catalog/families/expr.py": ["tests/families", "catalog/families/expr.py"],
    "catalog/families/params.py": ["tests/families"],
    "catalog/families/spec.py": ["tests/families"],
    "catalog/families/members.py": ["tests/families"],
    "catalog/families/filters.py": ["tests/families", "tests/store/test_families.py"],
    "catalog/families/registry.py": ["tests/families"],
}

#: module → the stages its tests run in (pytest options each), one after the
#: other, each stopping at its first failure: a mutant an early stage kills
#: never waits for the slower ones. The search's tests take 12 s on SQLite
#: (8 of them in two tests) and 25 s more on PostgreSQL; most mutants die in
#: the first 4 s.
SLOW_SEARCH = "merges_keep_every_posting or brute_force_answer"
STAGES: dict[str, list[list[str]]] = {
    "catalog/store/search.py": [
        ["-m", "not postgres", "-k", f"not ({SLOW_SEARCH})"],
        ["-m", "not postgres", "-k", SLOW_SEARCH],
        ["-m", "postgres"],
    ],
    # The queue's tests on SQLite first (about 10 s), then on PostgreSQL.
    "catalog/store/jobs.py": [["-m", "not postgres"], ["-m", "postgres"]],
    "catalog/service/jobs.py": [["-m", "not postgres"], ["-m", "postgres"]],
    # Its own tests take a tenth of a second; tests/families twelve.
    "catalog/families/params.py": [
        ["-k", "test_params or test_members"],
        [],
    ],
}


#: The string-constant run (``--strings``: tools/string_operator.py, the only
#: operator of those sessions), on the modules that hold the queue's states,
#: the job document's keys and the error kinds: module → the operator's
#: arguments (``groups``: words replaced by each other; ``only``: the other
#: values mutated, where the module's other strings are help and schema
#: texts).
STATES = ["queued", "running", "done", "failed"]
#: A worker's outcomes besides done and failed (catalog/service/jobs.py).
OUTCOMES = ["retried", "dropped", "released", "lost"]
STRINGS: dict[str, dict[str, list[Any]]] = {
    "catalog/store/jobs.py": {"groups": [STATES]},
    "catalog/service/jobs.py": {"groups": [STATES, OUTCOMES]},
    "catalog/api/jobs.py": {"groups": [STATES], "only": ["state", "eta"]},
    "cli/jobs.py": {"groups": [STATES], "only": ["state"]},
}
#: The string run's tests, in stages: the states as the CLI and the API show
#: them on SQLite (a few seconds), the text summary of ``wythoff jobs`` (its
#: sections are states), the queue's other tests, then PostgreSQL.
STRING_TESTS = [
    "tests/cli/test_job_states.py",
    "tests/store/test_queue.py",
    "tests/api/test_queue.py",
]
SUMMARIES = "tests/cli/test_summaries.py"
STRING_STAGES = [
    ["-m", "not postgres", STRING_TESTS[0]],
    ["-m", "not postgres", "-k", "jobs or empty_queue", SUMMARIES],
    ["-m", "not postgres", *STRING_TESTS[1:]],
    ["-m", "postgres", *STRING_TESTS],
]


def test_command(module: str, strings: bool = False) -> str:
    """The shell-free command cosmic-ray runs for each mutant of a module
    (of its string-constant run with ``strings``)."""
    if strings:
        runs = [shlex.join([*PYTEST.split(), *stage]) for stage in STRING_STAGES]
        return shlex.join(["sh", "-c", " && ".join(runs)])
    tests = MODULES[module]
    stages = STAGES.get(module)
    if not stages:
        return shlex.join([*PYTEST.split(), *tests])
    runs = [shlex.join([*PYTEST.split(), *stage, *tests]) for stage in stages]
    return shlex.join(["sh", "-c", " && ".join(runs)])


#: The one or two likeliest slips kept for each operator (mutmut's choice,
#: near enough): cosmic-ray replaces each operator by every other one, ten
#: mutants for each ``+``, which multiplied the run time by five and found
#: nothing the nearest slip does not (``+`` → ``<<`` dies wherever ``+`` → ``-``
#: does). Operators not listed here keep all their mutants.
KEPT: dict[str, set[str]] = {
    "ReplaceBinaryOperator_Add": {"Sub"},
    "ReplaceBinaryOperator_Sub": {"Add"},
    "ReplaceBinaryOperator_Mul": {"Div", "Add"},
    "ReplaceBinaryOperator_Div": {"Mul"},
    "ReplaceBinaryOperator_FloorDiv": {"Mul", "Div"},
    "ReplaceBinaryOperator_Mod": {"FloorDiv"},
    "ReplaceBinaryOperator_Pow": {"Mul"},
    "ReplaceBinaryOperator_LShift": {"RShift"},
    "ReplaceBinaryOperator_RShift": {"LShift"},
    "ReplaceBinaryOperator_BitAnd": {"BitOr"},
    "ReplaceBinaryOperator_BitOr": {"BitAnd"},
    "ReplaceBinaryOperator_BitXor": {"BitOr"},
    "ReplaceComparisonOperator_Lt": {"LtE", "GtE"},
    "ReplaceComparisonOperator_LtE": {"Lt", "Gt"},
    "ReplaceComparisonOperator_Gt": {"GtE", "LtE"},
    "ReplaceComparisonOperator_GtE": {"Gt", "Lt"},
    "ReplaceComparisonOperator_Eq": {"NotEq"},
    "ReplaceComparisonOperator_NotEq": {"Eq"},
    "ReplaceComparisonOperator_Is": {"IsNot"},
    "ReplaceComparisonOperator_IsNot": {"Is"},
    "ReplaceComparisonOperator_In": {"NotIn"},
    "ReplaceComparisonOperator_NotIn": {"In"},
}


def string_operator() -> Any:
    """tools/string_operator.py, its provider added to cosmic-ray in this
    process (skip_listed makes mutants here)."""
    spec = importlib.util.spec_from_file_location(
        "string_operator", ROOT / "tools" / "string_operator.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.register()
    return module


def kept(operator: str) -> bool:
    """Whether a mutant of this cosmic-ray operator is run (see KEPT)."""
    name = operator.removeprefix("core/")
    for prefix in ("ReplaceBinaryOperator_", "ReplaceComparisonOperator_"):
        if name.startswith(prefix):
            source, _, target = name.removeprefix(prefix).partition("_")
            return target in KEPT.get(prefix + source, {target})
    return True


def drop_unkept(session: Path, strings: bool = False) -> int:
    """Delete the mutants of the operators' unlikely replacements (KEPT), or
    with ``strings`` every mutant but the string operator's."""
    import sqlite3

    with sqlite3.connect(session) as db:
        jobs = [
            (job,)
            for job, operator in db.execute(
                "select job_id, operator_name from mutation_specs"
            )
            if (
                operator != string_operator().OPERATOR
                if strings
                else not kept(operator)
            )
        ]
        for table in ("work_results", "mutation_specs", "work_items"):
            db.executemany(f"delete from {table} where job_id = ?", jobs)
    return len(jobs)


#: module → (a line a surviving mutant adds, why it changes nothing). Such
#: survivors count as equivalent; docs/testing.md lists them too.
EQUIVALENT: dict[str, list[tuple[str, str]]] = {
    "catalog/inputs.py": [
        (
            "max_length: int, /, allow_empty: bool = False",
            "every caller passes value, name and max_length by position",
        ),
    ],
    "catalog/compute/cost.py": [
        *[
            (
                f"lo, hi = {start}, n",
                "the box search's floor: n = 2 always fits (box_bytes(game, 2) is "
                "at most 64 x 2 x 256 bytes), so the largest n found from 0, 1 or "
                "2 is the same",
            )
            for start in (0, 2)
        ],
        (
            "mid = (lo + hi + 2) // 2",
            "another midpoint in (lo, hi]: every such search ends at the largest "
            "value that fits",
        ),
        (
            "if need < MAX_BOX_BYTES:",
            "an estimate equal to its limit to the last bit of a float",
        ),
        (
            "if box_bytes(game, mid) < MAX_BOX_BYTES:",
            "an estimate equal to its limit to the last bit of a float",
        ),
        *[
            (text, "an estimate equal to its limit to the last bit of a float")
            for text in (
                "if chunk_seconds(game, x0, x0 + most) < seconds:",
                "if chunk_seconds(game, x0, x0 + mid) < seconds:",
            )
        ],
        *[
            (
                f"if a == 0), {default})",
                "_period's default: every caller passes a game with a vertical ray "
                "(the column engines, and the transposed one's inner game)",
            )
            for default in (0, 2)
        ],
        *[
            (
                f"@lru_cache(maxsize= {size})",
                "the probe cache's size: no answer reads it",
            )
            for size in (255, 257)
        ],
    ],
    "catalog/compute/farout.py": [
        (
            "range(len(self.bits) + 0)",
            "the prefix of all of S is the whole block, which always exceeds the "
            "value located inside it: the bisection never passes it",
        ),
        (
            "while table[-1] < value:",
            "a value at the last known block's start: that block's word lengths "
            "grow with its start, and every block past the first holds a zero, so "
            "it is located the same",
        ),
        *[
            (
                text,
                "any P-position below (x, y) in its column, or left of it on its "
                "row, is a winning move, and the function promises one",
            )
            for text in ("return (left[ -1], y)", "return (x, below[ -1])")
        ],
        *[
            (
                f"while table[{last}] <= value:",
                "grows one level more than needed: the same block is found",
            )
            for last in ("~1", "- 2")
        ],
        (
            "if k <= self.low - self.t:",
            "k = low - t is a diagonal of the head, answered before this test",
        ),
    ],
    "catalog/compute/closed.py": [
        (
            "if n < 0:",
            "for n = 0 the general path returns the same empty (0, 2) int64 array",
        ),
        *[
            (
                window,
                "outcome's candidates: a_j is met at j + 1 (j for small 0) and b_j "
                "at j, on every small below 2*10^6 and 200,000 random ones up to "
                "10^300; the window's other ends are a margin",
            )
            for window in (
                "(j - 2, j, j + 1, j + 2)",
                "(j - 1, j, j + 1, j - 2)",
                "(j + 1, j, j + 1, j + 2)",
                "(j - 1, j, j + 2, j + 2)",
                "(j - 1, j, j + 1, j + 1)",
                "(j - 1, j, j + 1, j + 3)",
                "(j - 0, j, j + 1, j + 2)",
                "(j - 1, j, j - 1, j + 2)",
                "(j - 1, j, j + 0, j + 2)",
            )
        ],
        *[
            (
                test,
                "small 0 is met by either branch's candidate 0 with the move "
                "(0, 0), and candidate -1 gives lower(-1) - 1 = -1, never a pile",
            )
            for test in (
                "if cand >= 1 and lower(cand) == small:",
                "if cand >= 1 and lower(cand) + cand == small:",
                "if cand >= -1 and lower(cand) + cand == small:",
            )
        ],
        (
            "(column >= -1) & (column < n)",
            "every column is written (Beatty), never left at its fill",
        ),
        ("swap = x >= y", "x = y gives the same small and big either way"),
        (
            "root * root >= values",
            "a perfect square decremented is put back by the upward correction",
        ),
        *[
            (
                bound,
                "a_k and b_k both below n need k < n / phi^2: a k_max of at least "
                "n / 2.618 + 2 writes every position inside the window",
            )
            for bound in (
                "int(n / 2.618",
                "int(n / 0.618",
                "int(n * 1.618)",
                "int(n / 1.618) + 1",
            )
        ],
        ("if small >= a:", "small == a returned P just before"),
        ("if n <= -1:", "for n = 0 the general path returns the same empty array"),
        *[
            (
                f"if cand > 0 and {test}",
                "small 0 is a_0, and the b_j branch's candidate 0 gives the same "
                "move (0, 0)",
            )
            for test in ("lower(cand) == small", "lower(cand) + cand == small")
        ],
        *[
            (
                fill,
                "every column below n is some a_k or b_k (Beatty), so each is "
                "written before it is read",
            )
            for fill in (
                "np.full(n, 1,",
                "np.full(n, +1,",
                "np.full(n, - 2,",
                "np.full(n, ~1,",
                "np.full(n, not 1,",
                "np.full(n, - 0,",
            )
        ],
        ("int(n / 1.618) + 3", "one k more than needed: its a_k is past n"),
        *[
            (
                guess,
                "float64's square root is never below the floor of the true one "
                "for values below 2^62 (its error is under half a unit in the "
                "last place), so the upward correction never fires: a guard",
            )
            for guess in (
                "(root + 1) * (root + 1) < values",
                "(root + 1) * (root + 2) <= values",
                "(root + 2) * (root + 1) <= values",
            )
        ],
    ],
    "catalog/families/spec.py": [
        (
            'source: str = field(default="", repr=True)',
            "a Family's repr only (which then shows its whole file)",
        ),
    ],
    "catalog/families/registry.py": [
        (
            'text.split(".", 2)[0] in self.by_name',
            "the first part of a split is the same whatever the most splits",
        ),
        (
            "KeyError, TypeError, CosmicRayTestingException) as exc:",
            "DefinitionError is a ValueError, caught by the same clause",
        ),
    ],
    "catalog/families/members.py": [
        (
            "strict=False)",
            "the values always hold one per parameter: the family's own product "
            "of ranges, or parse_values, which checks their count first",
        ),
        *[
            (
                f"MAX_EXPANDED = {size}",
                "how many families' expansions a process keeps: its memory, not "
                "what members returns (the eviction is tested with a bound of 2)",
            )
            for size in (31, 33)
        ],
    ],
    "catalog/compute/identify.py": [
        (
            "_SHIFTS = 25",
            "the number of cells past which the FFT replaces the shifts: both give "
            "the same grids (tests/compute/test_identify.py compares both paths "
            "with the definitions)",
        ),
        (
            "len(cells) <= _SHIFTS",
            "shifts or FFT: both give the same grids (both compared with the "
            "definitions)",
        ),
        (
            "len(cells) >= _SHIFTS",
            "shifts or FFT: both give the same grids",
        ),
        (
            "if not len(cells) > _SHIFTS",
            "shifts or FFT: both give the same grids",
        ),
        (
            ".shape[ -1]",
            "the window's grids are square (Window holds n × n cells)",
        ),
        (".shape[ 1]", "the window's grids are square (Window holds n × n cells)"),
        (
            "_BATCH = 51",
            "how many cover rows the search adds at once: its speed, not its answer",
        ),
        (
            "for k in range( 1, n):",
            "k = 1 checks allowed[a, b], true of every step it starts from",
        ),
        (
            "continue",
            "_multiples_ok: the loop past the window's last multiples finds none",
        ),
        (
            ">= 0.5",
            "the FFT's counts are integers within 1e-9: none lies at 0.5",
        ),
        (
            "k = np.arange( 0, n)",
            "k = 0 marks the step (0, 0), which is never in M* (moves counts M*)",
        ),
        ("count += 2", "the count only says whether any position was given"),
        (
            "below = found.games[ -1].size",
            "the games listed are all of the least size",
        ),
        (
            "seconds: float = ",
            "Answer.seconds is set on every path before identify returns it",
        ),
        (
            "for d in range(2, g + 2) if g % d == 0",
            "d = g + 1 never divides g",
        ),
    ],
    "catalog/compute/smallest.py": [
        (
            "_IMPLIED = ",
            "a rule's forced cells as implications or as one linear row: the "
            "same constraint, posted two ways for speed",
        ),
        ("if len(forced) > _IMPLIED:", "the same constraint, posted the other way"),
        ("new_bool_var(f", "a variable's name is a label"),
        ("num_workers = ", "the solver's threads: its speed, not its answer"),
        (
            "codes / n)",
            "the fraction added to a mirror code is dropped by int() where the "
            "codes are read",
        ),
        ("d = d[d >= 0]", "the step (0, 0) is neither a move nor on a ray"),
        (
            "for k in range( 0, n):",
            "k = 0 gives the step 0, which the coverers never look up",
        ),
        (
            "continue  # the model stays a relaxation",
            "past the deadline every later cell is skipped too: no row is added",
        ),
        *[
            (forced, "the same constraint, posted the other way")
            for forced in ("len(forced) < _IMPLIED:", "not len(forced) <= _IMPLIED:")
        ],
        ("_BATCH = 51", "how many cover rows are added at once: the speed"),
        (
            "max(_BATCH, len(missing)",
            "how many cover rows are added at once: the speed",
        ),
        ("d = d[d > -1]", "the step (0, 0) is neither a move nor on a ray"),
        ("(b, a) <= (a, b)", "a diagonal step swapped with itself"),
        *[
            (
                order,
                "the order of the cells of one anti-diagonal, which rows a batch "
                "takes first: the speed; rows are added until a solution holds "
                "on the whole window",
            )
            for order in (
                "outside[:, 1]",
                "outside[:, -1]",
                "missing[:, 1]",
                "missing[:, -1]",
            )
        ],
        *[
            (
                clock,
                "a clock that reads the deadline exactly (or left exactly 0)",
            )
            for clock in (
                "if time.monotonic() >= self.deadline:",
                "and time.monotonic() < self.deadline:",
                "if left < 0:",
            )
        ],
        ("~(r[0] + r[1])", "~x = -x - 1: the same order"),
        (
            "new_int_var( -1, self.limit",
            "the first tail is the first variables' count plus a later tail of 0 "
            "or more; a counter that never gets a variable bounds only itself",
        ),
        *[
            (
                bound,
                "the counters' bound only has to pass any least size: a least "
                "cover takes at most one rule (or cell) a cell outside S, "
                "n^2 - 1 < 2n^2 - 2",
            )
            for bound in (
                "self.limit = 3 * self.n * self.n + 2",
                "self.limit = 2 * self.n * self.n - 2",
                "self.limit = 2 * self.n * self.n + 3",
                "self.limit = 2 * self.n * self.n + 1",
                "self.limit = 2 + self.n * self.n + 2",
            )
        ],
        (
            "ray_ok[0, 0] = move_ok[0, 0] = True",
            "the step (0, 0) is never looked up: the coverers keep d > 0",
        ),
        ("while k * u <= n", "at k u = n the slices [n:] are empty: nothing joined"),
        (
            "and k * v <= n:",
            "at k v = n the slices [:, n:] are empty: nothing joined",
        ),
        (
            "(b, a) >= (a, b)",
            "the larger of a mirror pair stands for it: the same pair",
        ),
        ("self.limit = 1 * self.n * self.n + 2", "n^2 + 2 still passes n^2 - 1"),
        (
            "range( 3 * limit)",
            "the attempts' cap (see range(4 + limit)): fewer attempts list the "
            "same games on the random altered data",
        ),
        (
            "ray_ok[ -1, 0] = move_ok[0, 0] = False",
            "(n - 1, 0) has no second multiple inside, so it is no ray anyway, "
            "and the step (0, 0) is never looked up",
        ),
        (
            "ray_ok[0, -1] = move_ok[0, 0] = False",
            "(0, n - 1) has no second multiple inside, so it is no ray anyway, "
            "and the step (0, 0) is never looked up",
        ),
        (
            "np.zeros( 1, np.int64)",
            "with no ray the steps are empty too, and ray[order] takes none",
        ),
        (
            "inside = (k * a <= n)",
            "at k a = n the step's code k a n + k b is n^2 or more, and no "
            "difference of two cells is",
        ),
        ("for k, v in []:", "the hints are where the solver starts: its speed"),
        ("range( 5 * limit)", "more attempts at the next game: only time"),
        (
            "continue",
            "break for continue: past a full list, an infeasible or a stopped "
            "search, every later attempt ends the same way at once (or proves "
            "infeasible again); past the rays' last multiple inside the window, "
            "every later k adds nothing: only time",
        ),
        ("if not TYPE_CHECKING:", "the annotations' import made at run time too"),
        (
            "strict=False)",
            "the terms are pairs (variable, weight): zip(*terms) is whole",
        ),
        (
            "new_int_var( 1, self.limit",
            "a first tail of 1 or more binds only a game of size 0, which is "
            "the first solution and kept as such",
        ),
        (
            "range(4 + limit)",
            "the attempts' cap, a guard against games that simplify alike: in "
            "the invariant model distinct solutions keep distinct steps, and "
            "147 random altered data list the same games at limit 12 with "
            "limit + 4 attempts",
        ),
    ],
    "catalog/store/search.py": [
        (
            "max( 2, entries)",
            "a segment of 1 entry is at level 0 either way (2 < FANOUT)",
        ),
        (
            "_HEAD_BYTES = 8 * INDEXED_TERMS + 102",
            "the margin read past 8 bytes a term: a sequence that needs more is "
            "read whole (tested with 8 bytes)",
        ),
        ("for j in range( 6):", "values below 2^35 take five bytes at most"),
        (
            "grams_[not 1:]",
            "the postings of every start gram read, the last one's kept: more "
            "reading, the same candidates",
        ),
        *[
            (
                take,
                "how many candidates are checked at a time: the speed; they are "
                "checked until the list has its matches",
            )
            for take in (
                "take = wanted - len(have) + 5",
                "take = wanted - len(have) + 3",
                "if 2 + good < len(checked):",
                "if not 2 * good < len(checked):",
                "if 3 * good < len(checked):",
                "good = -1",
                "good = 1",
                "take = wanted + len(have) + 4",
                "take = min(2 + take, 1000)",
                "take = min( 3 * take, 1000)",
                "take = min(2 * take, 999)",
                "take = min(2 * take, 1001)",
                "if 2 * good >= len(checked):",
                "if 2 * good <= len(checked):",
            )
        ],
        (
            "wanted + len(found)",
            "a group asked for more matches than the page needs: the extra ones "
            "come after the page, in the same order",
        ),
        *[
            (limit, "every caller passes limit (service.search)")
            for limit in ("limit: int = 51", "limit: int = 49")
        ],
        (
            "length)[ -1]",
            "start grams: terms[:length] has one window of length `length`, so "
            "its first run is its last",
        ),
        (
            "| ( 2 << length)",
            "the gram of a bit run (the stored format): its length bit one "
            "place up, runs of two lengths may share grams, which only adds "
            "candidates; the term check drops them",
        ),
        *[
            (
                gram,
                "the gram of a bit run (the stored format): without its length "
                "bit, runs of other lengths share grams, which only adds "
                "candidates; the term check drops them",
            )
            for gram in ("| ( 0 << length)", "| (1 >> length)")
        ],
        (
            "& (1 << length)",
            "the gram of a bit run (the stored format): grams all 0 make every "
            "bit sequence a candidate, and the term check drops the others",
        ),
        ("take = min( 1 * take, 1000)", "candidates checked at a time: the speed"),
        ("good += 2", "candidates checked at a time: the speed"),
        ("14695981039346656038", "0xCBF29CE484222325 written in decimal"),
        ("lists[ 0:]", "the first list intersected with itself too"),
        *[
            (
                code,
                "the stored index's format (the longest bit run indexed, the "
                "start grams' kinds): queries read what the index wrote, and "
                "every candidate is checked term by term",
            )
            for code in (
                "LONGEST_FACTOR = 14",
                "LONGEST_FACTOR = 16",
                "START = 11",
                "START = 9",
            )
        ],
        *[
            (
                f"VACUUM_ENTRIES = {value}",
                "a tuning value; its role is tested with the value patched "
                "(tests/store/test_batches.py)",
            )
            for value in (1023, 1025)
        ],
        (
            "INDEXED_TERMS - 1024",
            "fewer bytes read first: a sequence that needs more is read whole",
        ),
        (
            "_HEAD_BYTES = 7 * INDEXED_TERMS",
            "fewer bytes read first: a sequence that needs more is read whole "
            "(tested with 8 bytes)",
        ),
        (
            "_HEAD_BYTES = 8 + INDEXED_TERMS",
            "fewer bytes read first: a sequence that needs more is read whole "
            "(tested with 8 bytes)",
        ),
        *[
            (
                check,
                "a bit sequence is always 0/1 (the bitstring); the grams of any "
                "other would only add candidates, which the term check drops",
            )
            for check in (
                "terms.max() > 2",
                "bits.max() > 2",
                "bits.min() < 0 and bits.max() > 1",
                "bits.min() < -1 or bits.max() > 1",
                "terms.min() < 0 and terms.max() > 1",
            )
        ],
        *[
            (
                code,
                "the stored index's format (a kind code no other kind uses, the "
                "gram's length, the hash): the answers are the same, every "
                "candidate being checked term by term; a change needs "
                "`wythoff db reindex`, as any change of format",
            )
            for code in (
                "14695981039346656036",
                "BIT_FACTORS = 7",
                "BIT_FACTORS = 5",
                "GRAM = 2",
                "h ^= h << np.uint64(29)",
                "h ^= h >> np.uint64( 28)",
                "h ^= h >> np.uint64( 30)",
                "(h >> np.uint64( 33))",
                "h *= np.uint64( 1099511628210)",
                "h *= np.uint64( 1099511628212)",
                "windows @ (1 >> np.arange(length",
                "windows @ ( 2 << np.arange(length",
                "windows @ ( 0 << np.arange(length",
            )
        ],
        ("if 1 * good < len(checked):", "candidates checked at a time: the speed"),
        ("good += 0", "candidates checked at a time: the speed"),
        (
            "_HEAD_BYTES = 9 * INDEXED_TERMS",
            "more bytes read first: the same terms decoded",
        ),
        (
            "if len(terms) <= needed:",
            "a sequence read whole when its head already held its terms: the "
            "same terms, one more read",
        ),
        (
            "or want.max() <= 2",
            "a query of 0s, 1s and 2s scans the bit sequences too, whose grams "
            "of a term 2 are none: no candidate",
        ),
        (
            "wanted = offset + limit + 2",
            "one match more than the page and `more` need: they are the same",
        ),
        *[
            (
                prepend,
                "the first row always starts a gram (new[0]), whose delta is "
                "its entry, not the difference",
            )
            for prepend in ("np.diff(entries, prepend= 1)", "prepend= -1)")
        ],
        (
            "assume_unique=False",
            "a posting list holds each entry once: the same intersection, "
            "computed without the shortcut",
        ),
        (
            "_MERGE_LOCK = 1465470276",
            "the mergers' advisory lock is any key no other lock uses (the "
            "vacuum's is 0x57595641)",
        ),
        *[
            (
                empty,
                "a bit sequence is always 0/1 (the bitstring), and a query "
                "with a term past 1 does not scan the bit sequences: the "
                "branch is never taken",
            )
            for empty in (
                "return np.empty( 1, dtype=np.int64)",
                "return np.empty( -1, dtype=np.int64)",
                "if terms.min() < -1 or terms.max() > 1:",
            )
        ],
        (
            "if len(found) > wanted:",
            "a group asked for no match once the page is full: it reads its "
            "candidates and returns none (matches(at_start, 0) is [])",
        ),
        *[
            (
                f'bindparam("{name}", expanding=False)',
                "SQLAlchemy makes a bind parameter given to in_() expanding either way",
            )
            for name in ("entries", "segments", "grams")
        ],
        (
            "for j in range( 0, len(want)):",
            "the query's first term compared again: the same places fit",
        ),
        (
            "np.searchsorted(grams_, [gram, gram + 2])",
            "a gram's list read with the next gram's entries too: more "
            "candidates, each checked term by term",
        ),
        (
            "query.offset(offset).limit(limit + 2)",
            "one row more read than the page and `more` need: the page is cut "
            "to `limit` rows",
        ),
        (
            "np.empty( 1, dtype=np.int64)).tolist()",
            "a start gram no entry holds gives one candidate of no meaning, "
            "checked term by term: no entry it may name starts so (it would "
            "hold the gram)",
        ),
        (
            "while len(have) <= wanted and pending:",
            "a match found past those asked for is kept for the next call, and "
            "the list returned is cut to `wanted`",
        ),
        (
            "ends[lasts].tolist(),\n    strict=False,",
            "a segment's rows zip lists of one item per gram each: strict only "
            "checks that",
        ),
        *[
            (
                places,
                "no place to compare (terms one shorter than the query): the "
                "comparisons are empty and the answer is None as well",
            )
            for places in ("if places < 0:", "if places <= -1:")
        ],
        *[
            (
                lock,
                "an advisory lock's key is any key no other lock uses",
            )
            for lock in (
                "_MERGE_LOCK = 1465470278",
                "_VACUUM_LOCK = 1465472576",
                "_VACUUM_LOCK = 1465472578",
            )
        ],
        *[
            (
                tuning,
                "a tuning value (segments merged at once, entries a rebuild "
                "writes together): the answers are the same, and the tests "
                "read the value or patch it",
            )
            for tuning in ("FANOUT = 9", "REBUILD_BATCH = 1023", "REBUILD_BATCH = 1025")
        ],
        (
            "if len(found) >= wanted:\n    continue",
            "once the page is full, the loop goes on over the other sequences "
            "and the same check skips each: none is asked for matches",
        ),
        *[
            (
                start,
                "the postings of more start grams read, the last one's kept: more "
                "reading, the same candidates",
            )
            for start in ("grams_[- 2:]", "grams_[- 0:]", "grams_[~1:]")
        ],
        (
            "func.substr(SequenceRow.data, 0, ",
            "one byte fewer read first (SQL's substr from 0): a sequence that "
            "needs more is read whole",
        ),
        *[
            (
                spread,
                "which of the query's grams, or how many, are read: every match "
                "holds all of them, and every candidate is checked term by term",
            )
            for spread in (
                "READ_GRAMS = 7",
                "READ_GRAMS = 9",
                "(count - 1) / (READ_GRAMS + 1)",
                "(count - 1) / (READ_GRAMS - 0)",
                "(count - 2) / (READ_GRAMS - 1)",
            )
        ],
        (
            "_merge(session, due[ -1])",
            "which due level is merged first: the loop merges until no level is "
            "due, and each merge keeps every posting (the levels' bound is tested)",
        ),
    ],
    "catalog/store/prints.py": [
        (
            "read_positions(session, entry_id, -1, window, window)",
            "no P-position has a negative column",
        ),
        (
            "if window >= 0:",
            "a window of 0 prints nothing (no size fits it); an extent of no "
            "columns is not kept",
        ),
    ],
    "catalog/families/expr.py": [
        (
            "return a >= -1 and lower(b - a) == a",
            "lower(k) >= 0 for k >= 0, so a = -1 fails the second test anyway",
        ),
    ],
    "cli/jobs.py": [
        *[
            (
                f'if "counts" in doc and "{state}" in doc and "{state}" in doc:',
                "the only document with counts at its top is the queue's summary, "
                "which holds both running and failed",
            )
            for state in ("running", "failed")
        ],
    ],
    "catalog/service/jobs.py": [
        (
            "full = len(group) > BATCH_JOBS",
            "a claim takes at most the batch's room, so the group never passes "
            "BATCH_JOBS inside the loop: only the seconds can fill it there",
        ),
        (
            "while len(group) <= BATCH_JOBS and seconds < BATCH_SECONDS",
            "a full group's next claim asks for none (BATCH_JOBS - len(group) "
            "is 0), gets none and ends the loop",
        ),
        (
            "counts[run(store, group[ -1], stopping, lease, backoff)]",
            "this branch has a group of one job (more go to run_batch)",
        ),
        *[
            (
                f"CONNECT_SECONDS = {value}",
                "the default patience of a starting worker, a setting: connect's "
                "retries and giving up are tested with their patience given",
            )
            for value in ("61.0", "59.0")
        ],
        *[
            (
                setting,
                "a tuning value (a batch of up to 64 jobs, claimed four at least); "
                "its role is tested with the value patched",
            )
            for setting in (
                "BATCH_JOBS = 63",
                "BATCH_JOBS = 65",
                "CLAIM_AT_LEAST = 3",
                "CLAIM_AT_LEAST = 5",
                "SMALL_SECONDS = 1.25",
                "SMALL_SECONDS = -0.75",
            )
        ],
        (
            "zip(more, _seconds(store, more), strict=False)",
            "_seconds gives one estimate a job: the lengths are always equal",
        ),
        ("    /,", "work(store, /, ...): every caller passes the options by keyword"),
        (
            "limit: int = 1001) -> dict",
            "its one caller, the CLI's jobs command, passes its own limit",
        ),
        (
            "limit: int = 999) -> dict",
            "its one caller, the CLI's jobs command, passes its own limit",
        ),
    ],
    "catalog/store/jobs.py": [
        (".limit( 2)", "read with scalar(), which takes the first row"),
        (
            "if not job_id is not None:",
            "a job inserted but not returned is the covering job of the next attempt",
        ),
        ("range( 11)", "ten or eleven lost races in a row: never met"),
        ("range( 9)", "nine or ten lost races in a row: never met"),
        (
            "if covering.priority <= priority:",
            "at equal priority the assignment writes the same value",
        ),
        ("limit: int = 999", "every caller of list_jobs passes its own limit"),
        ("limit: int = 1001", "every caller of list_jobs passes its own limit"),
        ("order.get(j.state, 3)", "finished jobs still sort after running, queued"),
        ('order = {"running": -1', "running jobs still sort first"),
        ("~j.priority if", "~p = -p - 1: the same order as -p"),
        ("else ~j.id", "~i = -i - 1: the same order as -i"),
        (
            'if j.state == "queued" else 1',
            "the key's second part only orders jobs of one state",
        ),
        (
            "Job.run_after < now",
            "a backoff ending at the very microsecond of the pick",
        ),
        (
            "_aware(other.heartbeat_at) <= stale",
            "a heartbeat at the very microsecond of the lease's end",
        ),
        (
            "Job.heartbeat_at <= stale,",
            "a heartbeat at the very microsecond of the lease's end",
        ),
        (
            "other.heartbeat_at > stale,",
            "a heartbeat at the very microsecond of the lease's end",
        ),
        (
            "Job.heartbeat_at > stale,",
            "_dead_here: a heartbeat at the very microsecond of the lease's end",
        ),
        (
            "if job_id is None:",
            "a job inserted but not returned is the covering job of the next attempt",
        ),
        *[
            (
                f"priority: int = {value}) -> Job:",
                "every caller of enqueue passes its priority",
            )
            for value in (1, -1)
        ],
        (
            "queued = _queued(session, stale, dead, 2)",
            "the first of the two is taken; the second is only locked until the "
            "claim commits (other claims skip it meanwhile)",
        ),
        (
            'if j.state == "queued" else -1',
            "the key's second part only orders jobs of one state",
        ),
        (
            "else not j.id,",
            "finished jobs come by id descending from the query and sorted is "
            "stable: an equal key keeps that order",
        ),
        (
            "return queued[ -1] if queued",
            "_pick asks for one job: first and last are one",
        ),
        (
            "for job in []:\n    session.expunge(job)",
            "the session's close detaches the rows anyway (expire_on_commit off: "
            "their attributes stay loaded)",
        ),
        # The string run's (--strings):
        (
            'return "XXlostXX"',
            "retry_later's answer for a job no longer ours: its callers "
            "(catalog/service/jobs.py) map every answer but queued and failed "
            "to the outcome lost",
        ),
        (
            'raise RuntimeError(f"XXcould not queue',
            "the message after ten lost races in a row: never met (as range(9) "
            "and range(11) above)",
        ),
    ],
}


def equivalent(module: str, diff: str) -> str | None:
    """Why a survivor's mutant changes nothing, if EQUIVALENT says so: a
    line it adds holds the listed text, or, for a text of several lines, the
    mutated code around a line it adds reads as the text (the same slip may
    be harmless in one loop and not in the next)."""
    lines = [line for line in diff.splitlines() if line[:3] not in ("+++", "---")]
    added = [_spaces(line[1:]) for line in lines if line[:1] == "+"]
    after = "\n".join(_spaces(line[1:]) for line in lines if line[:1] in " +")
    for text, reason in EQUIVALENT.get(module, []):
        if "\n" in text:
            wanted = [_spaces(line) for line in text.splitlines()]
            if "\n".join(wanted) in after and any(a in wanted for a in added):
                return reason
        elif any(_spaces(text) in a for a in added):
            return reason
    return None


def _spaces(line: str) -> str:
    return " ".join(line.split())


def annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every annotation in the module."""
    tree = ast.parse(path.read_text())
    spans = []
    for node in ast.walk(tree):
        notes = []
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            notes.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            notes.append(node.returns)
        for note in notes:
            end = (note.end_lineno or note.lineno, note.end_col_offset or 0)
            spans.append(((note.lineno, note.col_offset), end))
    return spans


def skip_annotations(module: str, session: Path) -> int:
    """Mark the mutants inside annotations as skipped: equivalent."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    spans = annotation_spans(ROOT / module)
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            start = item.mutations[0].start_pos
            if any(a <= start < b for a, b in spans):
                db.set_result(
                    item.job_id,
                    WorkResult(
                        worker_outcome=WorkerOutcome.SKIPPED,
                        output="equivalent: an annotation, never evaluated",
                    ),
                )
                skipped += 1
    return skipped


def skip_listed(module: str, session: Path) -> int:
    """Mark the mutants that EQUIVALENT lists as skipped before they run.

    Each mutant's diff is made as cosmic-ray makes it; one whose added lines
    EQUIVALENT names would be judged equivalent if it survived, and survive
    it does when the listing is right: run, it is the slowest kind (every
    stage of the module's tests passes). Its verdict is the same either way,
    equivalent; the reason and the diff are kept in the session."""
    from cosmic_ray.mutating import _make_diff, mutate_code
    from cosmic_ray.plugins import get_operator

    string_operator()  # the string run's mutants are made here too
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    source = (ROOT / module).read_text(encoding="utf-8")
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            spec = item.mutations[0]
            operator = get_operator(spec.operator_name)(**(spec.operator_args or {}))
            mutated = mutate_code(source, operator, spec.occurrence)
            if mutated is None:
                continue
            diff = "\n".join(_make_diff(source, mutated, module))
            reason = equivalent(module, diff)
            if reason is not None:
                db.set_result(
                    item.job_id,
                    WorkResult(
                        worker_outcome=WorkerOutcome.SKIPPED,
                        output=f"equivalent (listed, not run): {reason}",
                        diff=diff,
                    ),
                )
                skipped += 1
    return skipped


def retry_survivors(session: Path) -> int:
    """Forget the survivors' results, so that they run again (after a test
    was added for them)."""
    import sqlite3

    with sqlite3.connect(session) as db:
        return db.execute(
            "delete from work_results where test_outcome = 'SURVIVED'"
        ).rowcount


def replay(module: str, session: Path, strings: bool = False) -> dict[str, object]:
    """The survivors of a session not listed as equivalent, each applied to
    the checkout's last commit in a git worktree of its own and run with the
    module's tests (``--replay``): an older run's survivors judged by newer
    tests and code. cosmic-ray's own retry (``--retry``) mutates the
    positions the session recorded, which move when the module changes. The
    session is left as it is; a diff that no longer applies (its lines
    changed) is counted apart."""
    import sqlite3
    import tempfile

    if not session.exists():
        return {"session": "none yet", "survivors": []}
    with sqlite3.connect(session) as db:
        diffs = [
            diff or ""
            for (diff,) in db.execute(
                "select diff from work_results where test_outcome = 'SURVIVED'"
            )
        ]
    todo = [diff for diff in diffs if not equivalent(module, diff)]
    counts = {"equivalent": len(diffs) - len(todo), "killed": 0, "survived": 0}
    counts["not applied"] = 0
    left: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(tree), "HEAD"], check=True)
        env = {
            **os.environ,
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
            "PYTHONPATH": str(tree),  # before the editable install's finder
        }
        try:
            for diff in todo:
                patch = diff.split("--- mutation diff ---\n", 1)[-1]
                patch = patch.rstrip("\n") + "\n"
                applied = subprocess.run(
                    ["git", "apply", "-C1", "-"],
                    input=patch,
                    text=True,
                    cwd=tree,
                    capture_output=True,
                )
                if applied.returncode:
                    counts["not applied"] += 1
                    left.append("not applied:\n" + patch)
                    continue
                run = subprocess.run(
                    shlex.split(test_command(module, strings)),
                    cwd=tree,
                    env=env,
                    capture_output=True,
                    timeout=900,
                )
                subprocess.run(["git", "checkout", "-q", "--", module], cwd=tree)
                if run.returncode:
                    counts["killed"] += 1
                else:
                    counts["survived"] += 1
                    left.append(patch)
        finally:
            subprocess.run([*git, "remove", "--force", str(tree)], check=False)
    return {**counts, "survivors": left}


def sample(session: Path, keep: int, seed: int = 0) -> int:
    """Keep ``keep`` of the mutants not yet run, chosen at random (the same
    ones for the same session and seed), and delete the others: a score on a
    sample where the whole run would take hours (``--sample``)."""
    import random
    import sqlite3

    with sqlite3.connect(session) as db:
        pending = sorted(
            job
            for (job,) in db.execute(
                "select job_id from work_items where job_id not in "
                "(select job_id from work_results)"
            )
        )
        chosen = set(random.Random(seed).sample(pending, min(keep, len(pending))))
        dropped = [(job,) for job in pending if job not in chosen]
        for table in ("mutation_specs", "work_items"):
            db.executemany(f"delete from {table} where job_id = ?", dropped)
    return len(dropped)


def part(session: Path, index: int, count: int) -> int:
    """Keep part ``index`` of ``count`` of the session's mutants (1-based)
    and delete the others, the mutants taken in the order of their place in
    the module, so that ``count`` clones of the checkout, each with a fresh
    session and its own part (``--part 1/2``, ``--part 2/2``), run every
    mutant once between them: a whole run of a big module in a fraction of
    the time, one core each. :func:`merge` joins the parts again."""
    import sqlite3

    with sqlite3.connect(session) as db:
        ordered = [
            job
            for (job,) in db.execute(
                "select job_id from mutation_specs order by module_path, "
                "start_pos_row, start_pos_col, operator_name, occurrence"
            )
        ]
        dropped = [(job,) for at, job in enumerate(ordered) if at % count != index - 1]
        for table in ("work_results", "mutation_specs", "work_items"):
            db.executemany(f"delete from {table} where job_id = ?", dropped)
    return len(dropped)


def merge(session: Path, other: Path) -> int:
    """Add the mutants of ``other`` (another part's session, with their
    results) that ``session`` does not hold, by place and operator: the
    parts of one run made whole again. Return how many were added."""
    import sqlite3

    spec = (
        "module_path, operator_name, operator_args, occurrence, start_pos_row, "
        "start_pos_col, end_pos_row, end_pos_col, definition_name"
    )
    key = "module_path, operator_name, occurrence, start_pos_row, start_pos_col"
    with sqlite3.connect(session) as db:
        db.execute("attach database ? as other", (str(other),))
        modules = "select distinct module_path from {}.mutation_specs"
        mine, theirs = (set(db.execute(modules.format(s))) for s in ("main", "other"))
        if len(mine | theirs) > 1:
            raise SystemExit(f"--merge: sessions of other modules: {sorted(theirs)}")
        new = [
            job
            for (job,) in db.execute(
                f"select job_id from other.mutation_specs where ({key}) not in "
                f"(select {key} from main.mutation_specs)"
            )
        ]
        copies = (
            "insert into work_items select * from other.work_items where job_id = ?",
            f"insert into mutation_specs ({spec}, job_id) select {spec}, job_id "
            "from other.mutation_specs where job_id = ?",
            "insert into work_results select * from other.work_results "
            "where job_id = ?",
        )
        for job in new:
            for copy in copies:
                db.execute(copy, (job,))
    return len(new)


def run(
    module: str,
    fresh: bool,
    retry: bool = False,
    keep: int | None = None,
    seed: int = 0,
    share: tuple[int, int] | None = None,
    strings: bool = False,
) -> dict[str, object]:
    SESSIONS.mkdir(exist_ok=True)
    config, session = session_files(module, strings)
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    # The unmutated module first: its tests must pass, and a mutant that takes
    # four times as long (at least 30 s) is stopped and counted as killed (an
    # endless loop); a fixed limit counted slow survivors on a busy machine.
    start = time.monotonic()
    subprocess.run(
        # The command itself: a stage that selects no test fails here (pytest's
        # exit 5), not by killing every mutant.
        shlex.split(test_command(module, strings)),
        check=True,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    timeout = max(30.0, 4 * (time.monotonic() - start))
    config.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{module}"\n'
        f"timeout = {timeout:.0f}.0\n"
        "excluded-modules = []\n"
        f"test-command = {toml_string(test_command(module, strings))}\n"
        '[cosmic-ray.distributor]\nname = "local"\n'
        + (operator_table(module) if strings else "")
    )
    if fresh or not session.exists():
        session.unlink(missing_ok=True)
        subprocess.run([*COSMIC_RAY, "init", str(config), str(session)], check=True)
        drop_unkept(session, strings)
        if share is not None:
            part(session, *share)
        skip_annotations(module, session)
    elif retry:
        retry_survivors(session)
    if keep is not None:
        sample(session, keep, seed)
    skip_listed(module, session)
    subprocess.run(
        [*COSMIC_RAY, "exec", str(config), str(session)], check=True, cwd=ROOT, env=env
    )
    return score(module, session)


def session_files(module: str, strings: bool = False) -> tuple[Path, Path]:
    """A module's cosmic-ray configuration and session (its string run's
    are apart: ``<module>.strings.sqlite``)."""
    name = module.replace("/", ".") + (".strings" if strings else "")
    return SESSIONS / f"{name}.toml", SESSIONS / f"{name}.sqlite"


def operator_table(module: str) -> str:
    """The configuration's table that makes the string operator's mutants
    (an operator with arguments gets none without one)."""
    args = STRINGS[module]
    fields = "".join(f"{key} = {json.dumps(value)}\n" for key, value in args.items())
    name = json.dumps(string_operator().OPERATOR)
    # An array of tables, not an inline one: cosmic-ray reads its
    # configuration with the package toml (0.10), which refuses an inline
    # table holding two groups ([[...], [...]]): catalog/service/jobs.py's.
    return f"[[cosmic-ray.operators.{name}]]\n{fields}"


def toml_string(text: str) -> str:
    """A TOML basic string (the command holds quotes of its own)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def score(module: str, session: Path) -> dict[str, object]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    counts = {"mutants": 0, "killed": 0, "equivalent": 0, "survived": 0}
    survivors = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.results:
            counts["mutants"] += 1
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                counts["equivalent"] += 1
            elif result.test_outcome == TestOutcome.SURVIVED and equivalent(
                module, result.diff or ""
            ):
                counts["equivalent"] += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                counts["survived"] += 1
                survivors.append(result.diff or repr(item))
            else:
                counts["killed"] += 1
    live = counts["mutants"] - counts["equivalent"]
    return {
        **counts,
        "score": round(100 * counts["killed"] / live, 1) if live else 100.0,
        "survivors": survivors,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?", help="one module (default: all)")
    parser.add_argument("--fresh", action="store_true", help="start over")
    parser.add_argument(
        "--strings",
        action="store_true",
        help="mutate the string constants of the STRINGS modules (the queue's "
        "states), in sessions of their own",
    )
    parser.add_argument(
        "--retry", action="store_true", help="run the survivors again (new tests)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="run only N of the mutants not yet run, chosen at random",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the random choice of --sample (another seed, another sample)",
    )
    parser.add_argument(
        "--part",
        metavar="I/N",
        help="with --fresh: run only part I of N of the mutants (one clone of "
        "the checkout a part; --merge joins them)",
    )
    parser.add_argument(
        "--merge",
        metavar="SESSION",
        type=Path,
        help="add another part's session to this module's, then score it",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="run the session's survivors on the last commit (see replay)",
    )
    args = parser.parse_args()
    table = STRINGS if args.strings else MODULES
    modules = [args.module] if args.module else list(table)
    unknown = [m for m in modules if m not in table]
    if unknown:
        where = "STRINGS" if args.strings else "MODULES"
        print(f"not configured: {unknown[0]} (see {where} in tools/mutate.py)")
        return 2
    share = None
    if args.part:
        index, _, count = args.part.partition("/")
        if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
            print(f"--part: I/N with 1 <= I <= N, not {args.part}")
            return 2
        if not args.fresh:
            print("--part: with --fresh (a part is chosen when the session starts)")
            return 2
        share = (int(index), int(count))
    if args.merge and not args.module:
        print("--merge: name the module")
        return 2
    if args.merge and not args.merge.is_file():
        print(f"--merge: no session at {args.merge}")
        return 2
    for module in modules:
        _, session = session_files(module, args.strings)
        if args.merge:
            print(f"added {merge(session, args.merge)} mutants")
            found = score(module, session)
        elif args.replay:
            found = replay(module, session, args.strings)
        else:
            found = run(
                module,
                args.fresh,
                args.retry,
                args.sample,
                args.seed,
                share,
                args.strings,
            )
        for diff in found.pop("survivors"):  # type: ignore[attr-defined]
            print(diff)
        print(f"{module}: {found}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
