"""Every compiled kernel called once, with the argument types the catalog
gives it: a server does this before it accepts requests (``create_app``), so
that no request waits while numba loads machine code, and the tests do it
once before their workers start (tests/kernels.py). Loading from numba's
cache takes a second or two; compiling, on a fresh install, about 20 s.
"""

from __future__ import annotations

import threading

import numpy as np

from catalog import p_positions
from catalog.compute import altered, grundy
from catalog.compute.kernel import KernelSweep
from catalog.compute.ptable import resume_sweep
from catalog.errors import CatalogError
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir

N = 64

_done = False
_lock = threading.Lock()


def warm_once() -> None:
    """:func:`warm`, once per process."""
    global _done
    with _lock:
        if not _done:
            warm()
            _done = True


def warm() -> None:
    """Call every kernel with the argument types the catalog gives it."""
    for path in sorted(seed_dir().glob("W*.json")):
        definition = read_seed(path)["definition"]
        whole = p_positions(definition, N)
        half = whole[whole[:, 0] < N // 2]
        for height in (None, N):  # a resumed sweep: whole columns, then a box
            try:
                resume_sweep(definition, half, N // 2, height).advance(N)
            except CatalogError:  # no sweep of that kind for this game
                pass
        try:
            grundy.json_rows(grundy.grundy(definition, 8), 0, 8)
        except CatalogError:  # no Grundy table for this game
            pass
    p_positions({"rays": [[1, 0], [1, 1]]}, N)  # a horizontal ray only
    # The line tables as bits, which only fills past LINE_BUDGET use.
    wythoff = canonicalize({"rays": [[1, 0], [0, 1], [1, 1]]})
    KernelSweep(wythoff, compact=True).advance(N)
    grundy.json_rows(np.array([[0, 1], [1, 0]]), 0, 2)  # numpy's default int
    altered.row_stream(np.array([1, 0, 1], dtype=np.int8), 16)
