"""``wythoff`` commands at once, each in a process of its own, and the
shipped families loaded once for all of them.

The processes are forked by multiprocessing's fork server, which imports
this module (and so the catalog) once per test session: each process is
real, with its own connections and locks, but does not spend a second
importing numpy and SQLAlchemy first. Tests whose point is a process's
start-up, or a signal to it, start ``python -m catalog.cli`` instead.

Each store loads the shipped families and expands their members the first
time it needs a label (``add``, ``seed``, ``table``): a CLI process does it
once, but the tests make a store per command. :func:`load_families` hands
every store of the tests one :class:`FamilySet`, expanded once (it is only
read); ``tests/cli/conftest.py`` puts it in place.
"""

from __future__ import annotations

import functools
import multiprocessing
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


def _run(args: list[str], out: Connection) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(catalog.families, "load_families", load_families)
        result = CliRunner().invoke(cli, args)
    out.send((result.exit_code, result.stdout, result.stderr))
    out.close()


def race(*commands: list[str], timeout: float = 300) -> list[Outcome]:
    """Start every command (``wythoff``'s arguments) in a process of its own,
    then wait for them all: (exit code, stdout, stderr) of each."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # once, when the server starts
    pipes = [context.Pipe(duplex=False) for _ in commands]
    processes = [
        context.Process(target=_run, args=(args, sender))
        for args, (_, sender) in zip(commands, pipes, strict=True)
    ]
    for process in processes:
        process.start()
    outcomes = []
    for process, (receiver, sender) in zip(processes, pipes, strict=True):
        sender.close()
        with receiver:
            assert receiver.poll(timeout), f"no outcome within {timeout} s"
            outcomes.append(receiver.recv())
        process.join(timeout)
        assert process.exitcode == 0, process.exitcode
    return outcomes


def _warm() -> None:
    """What every command does first, done before any process is forked:
    import the service, both databases' drivers and the migrations."""
    import psycopg  # noqa: F401
    import sqlalchemy.dialects.postgresql.psycopg  # noqa: F401

    import catalog.service  # noqa: F401

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'warm.sqlite3'}")
        upgrade_to_head(engine)
        engine.dispose()
    shipped()


_warm()
