"""How fast the ``wythoff`` command starts, as ratios to Python baselines.

Run: ``make bench-cli`` (or ``python benchmarks/cli.py``). It seeds a catalog
in a temporary SQLite file (n = 2000, as ``wythoff seed`` does), then times
whole processes, interleaved so that a busy machine slows each alike:

- ``wythoff --help`` against ``python -c "import click"``: goal ≤ 1.3×;
- ``wythoff show W000001`` and ``wythoff is-p W000001 5 9`` against
  ``python -c "import sqlalchemy, numpy"``: goal ≤ 1.2×;
- ``wythoff add`` of a new game on a second catalog with every family
  seeded (``wythoff seed --family all --n 0``, some 10,000 entries): goal
  under 0.5 s, checked as ≤ 1.7× ``import sqlalchemy, numpy`` (0.5 s where
  that import takes 0.29 s, as where the goal was set), so that a busy
  machine does not miss it; the median in seconds is printed beside it.
  Each run adds another game (``"moves": [[2, 1000 + i]]``), and a run
  that finds its game already there fails the benchmark. ``--no-add``
  leaves this out (seeding the families takes some 10 s).

Prints the median wall time of each and the ratios of medians; exit 1 if a
goal is missed. The ratios of the median CPU times (user + system) are
printed beside them: on a busy machine they move less than the wall times.

The commands run as installed: from bytecode, which pip compiles at install
and an editable install writes on first import. ``PYTHONDONTWRITEBYTECODE``
is dropped from their environment, so the warm-up run writes it; with it,
every run would compile the catalog's sources again (a tenth of a second on
an idle machine) while the baselines' packages are compiled already.
``--source`` keeps the variable, to see that cost.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GOALS = {"--help": 1.3, "show W000001": 1.2, "is-p W000001 5 9": 1.2, "add": 1.7}
BASELINE = {
    "--help": "import click",
    "show W000001": "import sqlalchemy, numpy",
    "is-p W000001 5 9": "import sqlalchemy, numpy",
    "add": "import sqlalchemy, numpy",
}
#: ``wythoff add``'s goal in seconds (its ratio goal is this over the
#: baseline's 0.29 s where the goal was set).
ADD_SECONDS = 0.5


def new_game(run: int) -> str:
    """A game no family holds, another each run."""
    return json.dumps({"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[2, 1000 + run]]})


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    out = process.stdout.read() if process.stdout else b""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, argv)
    if argv[-1] == "--json" and not json.loads(out)["created"]:
        sys.exit(f"{' '.join(argv)}: the game was there already")
    return seconds, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each")
    parser.add_argument(
        "--source",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE from the environment (compile anew)",
    )
    parser.add_argument(
        "--no-add",
        action="store_true",
        help="leave out 'wythoff add' (and seeding every family for it)",
    )
    args = parser.parse_args()
    goals = {k: v for k, v in GOALS.items() if k != "add" or not args.no_add}
    python = sys.executable
    wythoff = [python, "-m", "catalog.cli"]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "WYTHOFF_DATABASE_URL": f"sqlite:///{folder}/c.sqlite3"}
        if not args.source:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([*wythoff, "seed"], env=env, check=True, capture_output=True)
        full = f"sqlite:///{folder}/families.sqlite3"
        if "add" in goals:
            subprocess.run(
                [*wythoff, "seed", "--family", "all", "--n", "0", "--db", full],
                env=env,
                check=True,
                capture_output=True,
            )
        runs = iter(range(args.repeat + 1))

        def argv_of(command: str) -> list[str]:
            if command != "add":
                return [*wythoff, *command.split()]
            game = new_game(next(runs))
            return [*wythoff, "add", "--definition", game, "--db", full, "--json"]

        commands = list(goals)
        bases = {b: [python, "-c", b] for b in set(BASELINE.values())}
        times: dict[str, list[float]] = {k: [] for k in [*commands, *bases]}
        cpu: dict[str, list[float]] = {k: [] for k in times}
        for command in commands:
            timed(argv_of(command), env)  # warm the caches; write bytecode
        for argv in bases.values():
            timed(argv, env)
        for _ in range(args.repeat):
            named = [(c, argv_of(c)) for c in commands]
            for name, argv in [*named, *bases.items()]:
                seconds, used = timed(argv, env)
                times[name].append(seconds)
                cpu[name].append(used)
    median = {k: statistics.median(v) for k, v in times.items()}
    median_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    for name, seconds in median.items():
        fastest = min(times[name]) * 1000
        print(
            f"{name:<28} median {seconds * 1000:7.1f} ms  min {fastest:7.1f} ms"
            f"  cpu {median_cpu[name] * 1000:7.1f} ms"
        )
    missed = 0
    for command, goal in goals.items():
        ratio = median[command] / median[BASELINE[command]]
        by_cpu = median_cpu[command] / median_cpu[BASELINE[command]]
        verdict = "ok" if ratio <= goal else "MISSED"
        missed += ratio > goal
        base = f"python -c {BASELINE[command]!r}"
        print(
            f"wythoff {command:<20} / {base}: {ratio:.2f}x (goal {goal}x) {verdict}"
            f"  (cpu {by_cpu:.2f}x)"
        )
    if "add" in goals:
        seconds = median["add"]
        verdict = "under" if seconds < ADD_SECONDS else "over"
        print(
            f"wythoff add on every family seeded: median {seconds:.2f} s, "
            f"{verdict} {ADD_SECONDS} s on this machine as it is"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
