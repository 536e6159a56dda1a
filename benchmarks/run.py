"""Time catalog.p_positions and a store fill on a few seeded games.

Run: ``make bench`` (or ``python benchmarks/run.py [--n N]``). Prints one line
per measurement; figures depend on the machine, so goals are ratios.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from catalog import p_positions
from catalog.config import Settings
from catalog.service import Store, seed
from catalog.store.fill import fill
from catalog.store.seed import read_seed, seed_dir

GAMES = ["W000001", "W000004", "W000005", "W000012", "W000017"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args()
    for wid in GAMES:
        game = read_seed(seed_dir() / f"{wid}.json")["game"]
        start = time.perf_counter()
        found = p_positions(game, args.n)
        took = time.perf_counter() - start
        print(f"p_positions {wid} n={args.n}: {took:.3f} s, {len(found)} positions")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Settings(f"sqlite:///{Path(folder) / 'bench.sqlite3'}"))
        seed(store)
        start = time.perf_counter()
        fill(store.sessions, 1, args.n)
        took = time.perf_counter() - start
        print(f"fill W000001 n={args.n} into SQLite: {took:.3f} s")
        store.dispose()


if __name__ == "__main__":
    main()
