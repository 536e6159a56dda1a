"""A watchdog behind pytest-timeout, for a test stuck in compiled code.

pytest-timeout's ``signal`` method (``timeout_method`` in ``pyproject.toml``)
fails a test that outlives its limit with a traceback, and the run goes on in
the same process: its ``SIGALRM`` handler raises in the test. That handler
is Python code, run by the interpreter between two bytecodes, so it never
runs while a compiled numba kernel loops: the kernel holds the GIL and does
not return to the interpreter. The ``thread`` method does no better: its
timer thread needs the GIL too, to dump the stacks and exit.

faulthandler's watchdog needs neither: a C thread that, ``GRACE`` seconds
after the test's limit, writes every thread's stack and ends the process.
It is set and cancelled with pytest-timeout's timer (its hooks), so it
covers what that covers (setup, call and teardown; the limit of a
``timeout`` marker, ``--timeout`` or the ini value). Under pytest-xdist the
test then fails as ``worker 'gwN' crashed while running '…'`` and a new
worker takes the rest; in one process the run ends with the stacks.
"""

from __future__ import annotations

import faulthandler
import os
from typing import IO, Any

import pytest

#: Seconds past a test's limit before the watchdog ends its process: time
#: for pytest-timeout's own failure, when the test runs Python.
GRACE = 30

#: The watchdog's file, opened once a process (faulthandler keeps only its
#: descriptor, which must stay open).
_STALL_FILE: list[IO[str]] = []


def _stall_file(config: pytest.Config) -> IO[str]:
    """Where the watchdog writes: the terminal's stderr as it was before
    pytest captured it (its saved descriptor, duplicated once), else a file in
    the run's temporary folder."""
    if _STALL_FILE:
        return _STALL_FILE[0]
    capture = config.pluginmanager.getplugin("capturemanager")
    capturing = getattr(capture, "_global_capturing", None)
    saved = getattr(getattr(capturing, "err", None), "targetfd_save", None)
    if isinstance(saved, int):
        _STALL_FILE.append(os.fdopen(os.dup(saved), "w"))
    else:
        folder = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
        _STALL_FILE.append(open(folder / "stalled-tests.txt", "a"))  # noqa: SIM115
    return _STALL_FILE[0]


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    # None: pytest-timeout's own implementation sets its timer next (the
    # hook stops at the first result).
    faulthandler.dump_traceback_later(
        settings.timeout + GRACE, exit=True, file=_stall_file(item.config)
    )


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    faulthandler.cancel_dump_traceback_later()
