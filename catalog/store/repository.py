"""The store's read and write functions, by job, under one name.

:mod:`catalog.store.entries` (entries and their keywords),
:mod:`catalog.store.positions` (extents, chunks, pages) and
:mod:`catalog.store.derived` (sequences, bit-strings, cross-references,
invariants). Callers write ``repo.get_entry(session, …)`` whichever module
holds it.
"""

from catalog.store.derived import *  # noqa: F403
from catalog.store.entries import *  # noqa: F403
from catalog.store.models import Entry  # noqa: F401  (repo.Entry in seed.py)
from catalog.store.positions import *  # noqa: F403
