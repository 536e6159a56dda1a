"""How fast the ``wythoff`` command starts, as ratios to Python baselines.

Run: ``make bench-cli`` (or ``python benchmarks/cli.py``). It seeds a catalog
in a temporary SQLite file (n = 2000, as ``wythoff seed`` does), then times
whole processes, interleaved so that a busy machine slows each alike:

- ``wythoff --help`` against ``python -c "import click"``: goal ≤ 2×;
- ``wythoff show W000001`` and ``wythoff is-p W000001 5 9`` against
  ``python -c "import sqlalchemy, numpy"``: goal ≤ 1.5×.

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
import os
import statistics
import subprocess
import sys
import tempfile
import time

GOALS = {"--help": 2.0, "show W000001": 1.5, "is-p W000001 5 9": 1.5}
BASELINE = {
    "--help": "import click",
    "show W000001": "import sqlalchemy, numpy",
    "is-p W000001 5 9": "import sqlalchemy, numpy",
}


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, argv)
    return seconds, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each")
    parser.add_argument(
        "--source",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE from the environment (compile anew)",
    )
    args = parser.parse_args()
    python = sys.executable
    wythoff = [python, "-m", "catalog.cli"]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "WYTHOFF_DATABASE_URL": f"sqlite:///{folder}/c.sqlite3"}
        if not args.source:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([*wythoff, "seed"], env=env, check=True, capture_output=True)
        commands = {c: [*wythoff, *c.split()] for c in GOALS}
        bases = {b: [python, "-c", b] for b in set(BASELINE.values())}
        times: dict[str, list[float]] = {k: [] for k in [*commands, *bases]}
        cpu: dict[str, list[float]] = {k: [] for k in times}
        for argv in [*commands.values(), *bases.values()]:
            timed(argv, env)  # warm the file cache and numba's; write bytecode
        for _ in range(args.repeat):
            for name, argv in [*commands.items(), *bases.items()]:
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
    for command, goal in GOALS.items():
        ratio = median[command] / median[BASELINE[command]]
        by_cpu = median_cpu[command] / median_cpu[BASELINE[command]]
        verdict = "ok" if ratio <= goal else "MISSED"
        missed += ratio > goal
        base = f"python -c {BASELINE[command]!r}"
        print(
            f"wythoff {command:<20} / {base}: {ratio:.2f}x (goal {goal}x) {verdict}"
            f"  (cpu {by_cpu:.2f}x)"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
