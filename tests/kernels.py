"""Compile the numba kernels once, before pytest-xdist starts its workers.

A fresh checkout has no machine code in numba's cache: each worker, and each
``wythoff`` process a test starts, would compile the same kernels (some 20 s
of CPU each). The controller compiles them here first, into the cache
directory they all share (``NUMBA_CACHE_DIR``, set by :mod:`catalog.compute.jit`), and
then they only load it. numba writes its cache files whole (a temporary file,
then a rename), so processes reading and writing it at once are safe; a
kernel or a type signature this warm-up misses is compiled where it is first
called, as before.
"""

from __future__ import annotations

import numpy as np

from catalog import p_positions
from catalog.compute import altered, grundy
from catalog.compute.ptable import resume_sweep
from catalog.errors import CatalogError
from catalog.store.seed import read_seed, seed_dir

N = 64


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
    grundy.json_rows(np.array([[0, 1], [1, 0]]), 0, 2)  # numpy's default int
    altered.row_stream(np.array([1, 0, 1], dtype=np.int8), 16)
