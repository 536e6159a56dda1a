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

from catalog.compute.warm import warm

__all__ = ["warm"]
