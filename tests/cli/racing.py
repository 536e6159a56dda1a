"""``wythoff`` commands in processes of their own, and the shipped families
loaded once for all of them.

The processes are forked by multiprocessing's fork server, which imports
this module (and so the catalog, the drivers and the compiled kernels) once
per test session: each process is real, with its own connections, locks and
signals, but does not spend a second importing numpy and SQLAlchemy first.
Tests whose point is a process's start-up start ``python -m catalog.cli``.

Each store loads the shipped families and expands their members the first
time it needs a label (``add``, ``seed``, ``table``): a CLI process does it
once, but the tests make a store per command. :func:`load_families` hands
every store of the tests one :class:`FamilySet`, expanded once (it is only
read); ``tests/cli/conftest.py`` puts it in place.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import tempfile
from multiprocessing.connection import Connection
from pathlib import Path

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


def _run(args: list[str], env: dict[str, str], out: Connection) -> None:
    # The fork server's environment is the test's that started it: only
    # ``env`` of the catalog's settings counts.
    settings = {k: None for k in os.environ if k.startswith("WYTHOFF_")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalog.families, "load_families", load_families)
        result = CliRunner().invoke(cli, args, env={**settings, **env})
    out.send((result.exit_code, result.stdout, result.stderr))
    out.close()


class Forked:
    """``wythoff ARGS`` (with ``env`` added to the environment) in a process
    forked by the fork server."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        context = multiprocessing.get_context("forkserver")
        # Once, when the server starts: this module, and all it warms.
        context.set_forkserver_preload([__name__, "tests.cli.warmed"])
        self.receiver, sender = context.Pipe(duplex=False)
        self.process = context.Process(target=_run, args=(args, env or {}, sender))
        self.process.start()
        sender.close()  # the child holds its own end

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()

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
