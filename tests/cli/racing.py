"""``wythoff`` commands in processes of their own, and the shipped families
loaded once for all of them.

The processes are forked by multiprocessing's fork server, which imports
this module (and so the catalog, the drivers and the compiled kernels) once
per test session: each process is real, with its own connections, locks and
signals, but does not spend a second importing numpy and SQLAlchemy first.
Tests whose point is a process's start-up start ``python -m catalog.cli``.

A test that signals such a process makes it stop itself at a known point of
its work (:class:`StopAt`) and waits for that state
(:meth:`Forked.wait_stopped`): what the process has done when the signal
comes is then fixed, whatever the machine's speed or load, where waiting
for some progress and then signalling raced with the work's end.

Each store loads the shipped families and expands their members the first
time it needs a label (``add``, ``seed``, ``table``): a CLI process does it
once, but the tests make a store per command. :func:`load_families` hands
every store of the tests one :class:`FamilySet`, expanded once (it is only
read); ``tests/cli/conftest.py`` puts it in place.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import multiprocessing
import os
import resource
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from signal import SIGSTOP
from typing import Any

import pytest
from click.testing import CliRunner

import catalog.families
from catalog.cli.main import cli
from catalog.families import FamilySet
from catalog.families import load_families as load_anew
from catalog.store.db import make_engine, upgrade_to_head

Outcome = tuple[int, str, str]


@functools.cache
def shipped() -> FamilySet:
    """The shipped families with their members expanded."""
    found = load_anew()
    found.by_key  # noqa: B018  (expands every member)
    return found


def load_families(folder: Path | None = None, seeds: Path | None = None) -> FamilySet:
    """:func:`catalog.families.load_families`, the shipped ones shared."""
    if folder is None and seeds is None:
        return shipped()
    return load_anew(folder, seeds)


@dataclass(frozen=True)
class StopAt:
    """Where a forked process stops itself (``SIGSTOP``): at the ``call``-th
    call of ``target`` (``"module:attribute.path"``), before the call or,
    with ``after``, once it has returned. A stopped process cannot end, so a
    test can signal it then and let it go on (``SIGCONT``) or kill it."""

    target: str
    call: int
    after: bool = False

    def install(self, patch: pytest.MonkeyPatch) -> None:
        module, _, path = self.target.partition(":")
        owner: Any = importlib.import_module(module)
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        original = getattr(owner, name)
        calls = itertools.count(1)

        @functools.wraps(original)
        def stopping(*args: Any, **kwargs: Any) -> Any:
            here = next(calls) == self.call
            if here and not self.after:
                os.kill(os.getpid(), SIGSTOP)
            result = original(*args, **kwargs)
            if here and self.after:
                os.kill(os.getpid(), SIGSTOP)
            return result

        patch.setattr(owner, name, stopping)


def _run(
    args: list[str],
    env: dict[str, str],
    out: Connection,
    stop: StopAt | None,
    file_limit: int | None,
) -> None:
    if file_limit is not None:
        # A write past it fails with EFBIG, as on a full disk (Python ignores
        # the SIGXFSZ that comes with it); the pipe to the test is no file.
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    # The fork server's environment is the test's that started it: only
    # ``env`` of the catalog's settings counts.
    settings = {k: None for k in os.environ if k.startswith("WYTHOFF_")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalog.families, "load_families", load_families)
        if stop is not None:
            stop.install(patch)
        result = CliRunner().invoke(cli, args, env={**settings, **env})
    out.send((result.exit_code, result.stdout, result.stderr))
    out.close()


class Forked:
    """``wythoff ARGS`` (with ``env`` added to the environment) in a process
    forked by the fork server, stopping itself at ``stop`` if given, its
    files capped at ``file_limit`` bytes if given (RLIMIT_FSIZE)."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str] | None = None,
        stop: StopAt | None = None,
        file_limit: int | None = None,
    ) -> None:
        context = multiprocessing.get_context("forkserver")
        # Once, when the server starts: this module, and all it warms.
        context.set_forkserver_preload([__name__, "tests.cli.warmed"])
        self.receiver, sender = context.Pipe(duplex=False)
        self.process = context.Process(
            target=_run, args=(args, env or {}, sender, stop, file_limit)
        )
        self.process.start()
        sender.close()  # the child holds its own end

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()

    def state(self) -> str | None:
        """The process's state letter in ``/proc`` (``T``: stopped), None
        once it has ended and been reaped (by the fork server)."""
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except FileNotFoundError:
            return None
        return stat.rpartition(")")[2].split()[0]

    def wait_stopped(self, timeout: float = 300) -> None:
        """Wait until the process has stopped itself (:class:`StopAt`): a
        state it keeps until it is signalled. Fails, with what the command
        said, if it ends first."""
        end = time.monotonic() + timeout
        while (state := self.state()) != "T":
            if state in (None, "Z") or not self.alive():
                raise AssertionError(f"ended before it stopped: {self.outcome(1)}")
            assert time.monotonic() < end, f"not stopped within {timeout} s"
            time.sleep(0.01)

    def send_signal(self, signal: int) -> bool:
        """Signal the process; False when it has already ended (and been
        reaped): a normal case for a test that races it, not an error."""
        try:
            os.kill(self.pid, signal)
        except ProcessLookupError:
            return False
        return True

    def outcome(self, timeout: float = 300) -> Outcome | None:
        """(exit code, stdout, stderr) of the command once it has ended; None
        when the process died before it could tell (kill -9)."""
        with self.receiver:
            assert self.receiver.poll(timeout), f"not ended within {timeout} s"
            try:
                found = self.receiver.recv()
            except EOFError:
                found = None
        self.process.join(timeout)
        assert self.process.exitcode is not None
        return found


def race(*commands: list[str], timeout: float = 300) -> list[Outcome]:
    """Start every command (``wythoff``'s arguments) in a process of its own,
    then wait for them all: (exit code, stdout, stderr) of each."""
    started = [Forked(args) for args in commands]
    outcomes = [forked.outcome(timeout) for forked in started]
    assert all(o is not None for o in outcomes), outcomes
    return outcomes  # type: ignore[return-value]


def warm() -> None:
    """What the commands do first, done in the fork server before it forks
    any process: import the service and both databases' drivers, run the
    migrations, load the kernels compiled for the seeds, expand the
    families."""
    import psycopg  # noqa: F401
    import sqlalchemy.dialects.postgresql.psycopg  # noqa: F401

    import catalog.service  # noqa: F401
    from tests.kernels import warm as load_kernels

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'warm.sqlite3'}")
        upgrade_to_head(engine)
        engine.dispose()
    load_kernels()
    shipped()
