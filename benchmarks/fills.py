"""Peak memory of the store's fills: ``wythoff compute ID --n N`` on SQLite.

Run: ``make bench-fills`` (or ``python benchmarks/fills.py``; ``--n`` sets the
bound, 10^7 by default, the most one command stores). Each game is added to a
fresh SQLite file and computed by the command in a fresh process, whose own
peak resident set (``ru_maxrss`` from ``wait4``, as ``/usr/bin/time`` reports
it) is the figure; then the same entry is computed from n/2 stored columns to
n, the fill that resumes and reads the stored columns back.

Goal: every peak under 1 GB at n = 10^7 for Wythoff's Nim, Maharaja Nim,
Linear Nimhoff {(1,0),(0,2),(1,1)} and the kernel family members of
``benchmarks/run.py``'s goal 4 (the heaviest Linear Nimhoff member among
them). The figures below 10^7 are printed, not judged. The load average is
printed with them: the machine is shared, and time is not a goal here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from run import FAMILY_MEMBERS, HEAVIEST, game  # noqa: E402

GAMES = ["W000001", "W000004", "W000012", *FAMILY_MEMBERS, HEAVIEST]
GOAL_MB = 1024


def command(url: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "catalog.cli", "--db", url, *args]


def measured(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak MB) of ``cmd`` run to its end in a fresh process."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed: {errors.read().decode()}")
    return took, usage.ru_maxrss / 1024


def add(url: str, label: str) -> str:
    """Add the game ``label`` to the catalog at ``url``; its ID there."""
    definition = json.dumps(game(label))
    added = subprocess.run(
        command(url, "--json", "add", "--definition", definition),
        check=True,
        capture_output=True,
        text=True,
    )
    return str(json.loads(added.stdout)["id"])


def fill_peaks(label: str, n: int, workdir: Path) -> tuple[float, float, float]:
    """(seconds, peak MB) of computing ``label`` from nothing up to n, and
    the peak MB of computing it from n/2 stored columns to n."""
    url = f"sqlite:///{workdir / (label + '.db')}"
    entry = add(url, label)
    took, peak = measured(command(url, "compute", entry, "--n", str(n)))
    half = f"sqlite:///{workdir / (label + '-half.db')}"
    entry = add(half, label)
    measured(command(half, "compute", entry, "--n", str(n // 2)))
    _, resumed = measured(command(half, "compute", entry, "--n", str(n)))
    for path in workdir.iterdir():
        path.unlink()
    return took, peak, resumed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="the bound")
    parser.add_argument("games", nargs="*", help="seed IDs or family labels")
    args = parser.parse_args()
    failures = []
    print(f"peak memory of `wythoff compute ID --n {args.n}` on SQLite")
    print(f"   load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        for label in args.games or GAMES:
            took, peak, resumed = fill_peaks(label, args.n, Path(tmp))
            print(
                f"   {label}: {peak:.0f} MB in {took:.1f} s; "
                f"from n/2 stored: {resumed:.0f} MB"
            )
            if args.n >= 10_000_000 and max(peak, resumed) >= GOAL_MB:
                failures.append(label)
                print(f"  MISS {label} over {GOAL_MB} MB")
    print(f"   load average {os.getloadavg()[0]:.1f} at the end")
    print("all goals met" if not failures else f"{len(failures)} goal(s) missed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
