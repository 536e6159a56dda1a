"""How much one caller lets a fill do (:func:`catalog.store.fill.fill`).

Apart from :mod:`catalog.store.fill`: every store is built with its limits,
and building one must not load the compute layer (``wythoff show`` reads
without it).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol


class Gate(Protocol):
    """Admits computations (:mod:`catalog.api.gate` in the server)."""

    def __call__(
        self,
        seconds: float,
        *,
        measured: bool = False,
        fill: tuple[int, int] | None = None,
    ) -> AbstractContextManager[Any]: ...


@dataclass
class Limits:
    """How much one caller lets :func:`~catalog.store.fill.fill` do (None: no
    limit).

    ``budget``: most expected seconds of work (:mod:`catalog.compute.cost`);
    more raises :class:`~catalog.errors.TooMuchWork` before anything is computed.
    ``wait``: most seconds to wait for another process's claim on the
    entry, then :class:`Busy` (at least ``deadline`` for a claim that
    reaches the fill's ``n``: that wait is the fill's own work).
    ``deadline``: most seconds of actual work; past it the fill stops after
    its current chunk (kept) and raises :class:`Busy`, so a request ends
    even when the machine is slower than the estimate says. ``on_wait`` is
    told once when the fill starts waiting.
    """

    budget: float | None = None
    wait: float | None = None
    deadline: float | None = None
    on_wait: Callable[[str], None] | None = None
    #: The server's gate: told the estimated seconds of a computation about
    #: to start (within the budget), it returns a context held while the work
    #: runs, or raises :class:`~catalog.errors.Throttled` (the client's quota
    #: is spent, no compute slot is free). ``measured``: charge the seconds
    #: the work took instead (a search whose estimate is its time limit);
    #: ``fill``: the entry and bound of a fill, which a server with a queue
    #: may queue instead. None (the command line): no gate.
    gate: Gate | None = None

    def admitted(
        self,
        seconds: float,
        *,
        measured: bool = False,
        fill: tuple[int, int] | None = None,
    ) -> AbstractContextManager[Any]:
        """The gate's admission of a computation of ``seconds`` (see ``gate``)."""
        if self.gate is None:
            return nullcontext()
        return self.gate(seconds, measured=measured, fill=fill)
