"""How much one caller lets a fill do (:func:`catalog.store.fill.fill`).

Apart from :mod:`catalog.store.fill`: every store is built with its limits,
and building one must not load the compute layer (``wythoff show`` reads
without it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Limits:
    """How much one caller lets :func:`~catalog.store.fill.fill` do (None: no
    limit).

    ``budget``: most expected seconds of work (:mod:`catalog.compute.cost`);
    more raises :class:`~catalog.errors.TooMuchWork` before anything is computed.
    ``wait``: most seconds to wait for another process's claim on the
    entry, then :class:`Busy`. ``deadline``: most seconds of actual work;
    past it the fill stops after its current chunk (kept) and raises
    :class:`Busy`, so a request ends even when the machine is slower than
    the estimate says. ``on_wait`` is told once when the fill starts waiting.
    """

    budget: float | None = None
    wait: float | None = None
    deadline: float | None = None
    on_wait: Callable[[str], None] | None = None
