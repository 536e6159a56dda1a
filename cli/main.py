"""The ``wythoff`` command: a thin layer over :mod:`catalog.service`.

This module holds the group, the options shared by its commands (``--json``,
``--db``, ``--n``) and the mapping of the catalog's errors to one line; the
commands live one module per family (:mod:`~catalog.cli.reading`,
:mod:`~catalog.cli.theory`, :mod:`~catalog.cli.writing`,
:mod:`~catalog.cli.families`, :mod:`~catalog.cli.jobs`,
:mod:`~catalog.cli.admin`) and the text forms of their results in
:mod:`~catalog.cli.output`.

Nothing heavy is imported at module level: ``wythoff --help`` loads click
and this package only, and each command imports the service (SQLAlchemy,
numpy) when it runs; numba is imported only when a kernel is called
(:mod:`catalog.compute.jit`). ``tests/cli/test_startup.py`` holds this.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.exceptions import NoArgsIsHelpError

from catalog.cli import admin, families, jobs, reading, theory, writing
from catalog.cli.output import emit
from catalog.cli.params import Integer, user_error
from catalog.errors import CatalogError

if TYPE_CHECKING:
    from catalog import service

CONTEXT = {"help_option_names": ["-h", "--help"]}


class Catalog(click.Group):
    """The ``wythoff`` group: click's own usage errors (a missing argument,
    an unknown option, a path that does not exist) are one line on stderr
    and exit status 1, like every other bad input; ``-h`` still shows help."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except NoArgsIsHelpError as exc:  # ``wythoff`` alone: its help
            click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
            sys.exit(0)
        except click.UsageError as exc:
            hint = f" (see {exc.ctx.command_path} -h)" if exc.ctx else ""
            click.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> click.Context:
        if parent is None:  # the subcommands' contexts inherit it
            extra.setdefault("terminal_width", terminal_width())
        return super().make_context(info_name, args, parent, **extra)


def terminal_width() -> int:
    """The width ``shutil.get_terminal_size`` gives click's help (``COLUMNS``,
    else the terminal's, else 80), without importing shutil: with lzma and
    bz2, which it loads, a sixth of what ``wythoff --help`` adds to
    ``import click``."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class LazyStore:
    """Builds the store on first use, so ``--help`` never touches a database."""

    def __init__(self) -> None:
        self.db: str | None = None
        self.as_json = False
        self._store: service.Store | None = None

    @property
    def store(self) -> service.Store:
        service = _service()
        from catalog.config import Settings
        from catalog.store.limits import Limits

        if self._store is None:
            # The user's own terminal: no budget, and a claim held by
            # another process is waited for (said once on stderr).
            limits = Limits(on_wait=lambda message: click.echo(message, err=True))
            self._store = service.Store(Settings.load(self.db), limits=limits)
        return self._store


def _service() -> Any:
    """:mod:`catalog.service`, imported with the cyclic garbage collector
    paused and its objects then frozen, on a command's first use in a
    process. The import makes some 200,000 objects (SQLAlchemy, numpy), no
    garbage: collections during the import, and every full collection of
    the command, would walk them all (a sixth of ``show``'s CPU time)."""
    if "catalog.service" in sys.modules or not gc.isenabled():
        from catalog import service

        return service
    gc.disable()
    try:
        from catalog import service
    finally:
        gc.freeze()  # the modules' objects: never garbage
        gc.enable()
    return service


json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document."
)
#: ``WYTHOFF_DATABASE_URL`` is read by :meth:`Settings.load` when neither the
#: group's nor the command's ``--db`` is given (so the command line wins).
db_option = click.option(
    "--db",
    metavar="URL",
    help="Database URL (default: WYTHOFF_DATABASE_URL, else an SQLite file in "
    "the user data directory).",
)


def common(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json`` and ``--db`` on every command (they may also come before the
    command's name); user errors become one line."""

    @json_option
    @db_option
    @click.pass_obj
    @functools.wraps(func)
    def wrapper(obj: LazyStore, as_json: bool, db: str | None, **kwargs: Any) -> None:
        obj.db = db or obj.db
        as_json = as_json or obj.as_json
        if getattr(func, "takes_format", False):
            kwargs["as_json"] = as_json
        try:
            result = func(obj.store, **kwargs)
        except CatalogError as exc:
            raise user_error(exc) from None
        finally:
            if obj._store is not None:
                obj._store.dispose()
        emit(result, as_json)
        if isinstance(result, dict) and result.get("ok") is False:
            sys.exit(1)  # verify: the report is printed, and the exit says it failed

    return wrapper


def takes_format(func: Callable[..., Any]) -> Callable[..., Any]:
    """A command under :func:`common` whose text is not its JSON document
    rendered (a summary of a bulk result) gets ``as_json`` too."""
    func.takes_format = True  # type: ignore[attr-defined]
    return func


def n_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """The bound ``--n`` of ``positions`` and ``compute``."""
    return click.option(
        "--n",
        "n",
        type=Integer(0),
        required=True,
        help="Bound: positions with x < N and y < N.",
    )(func)


def with_progress(store: service.Store, wid: str, n: int, label: str, as_bar: bool):
    """A click progress bar on stderr over the columns still to compute."""
    from catalog import service

    total = service.work_needed(store, wid, n)
    if total < 2_000 or not as_bar:
        return None, None
    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    return bar, bar.update


def filled(store: service.Store, wid: str, n: int, label: str, call):
    """``call(update)``: a fill of ``wid`` up to ``n``, with a progress bar
    (``update``) when stderr is a terminal and the work is long."""
    bar, update = with_progress(store, wid, n, label, sys.stderr.isatty())
    if bar is None:
        return call(None)
    with bar:
        return call(update)


@click.group(cls=Catalog, context_settings=CONTEXT)
@click.version_option(package_name="wythoff-catalog")
@json_option
@db_option
@click.pass_context
def cli(ctx: click.Context, as_json: bool, db: str | None) -> None:
    """The catalog of Wythoff's Nim and its variants.

    --db and --json may be given here or after the command's name.
    """
    ctx.obj = LazyStore()
    ctx.obj.db = db
    ctx.obj.as_json = as_json


# click lists the commands by name, whatever the order they are added in.
writing.register(cli)
reading.register(cli)
theory.register(cli)
admin.register(cli)
families.register(cli)
jobs.register(cli)
