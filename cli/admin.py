"""Running and keeping the catalog: ``verify``, ``serve`` and ``db``
(``reindex``, ``upgrade``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from catalog.cli.params import Integer
from catalog.config import CLAIM_WAIT_SECONDS, INLINE_SECONDS, OVERRUN

if TYPE_CHECKING:
    from catalog import service
    from catalog.cli.main import LazyStore


def register(cli: click.Group) -> None:
    """Add the administration commands to the ``wythoff`` group."""
    from catalog.cli.main import common, db_option

    @cli.command()
    @click.argument("entry_ids", metavar="[ID]...", nargs=-1)
    @common
    def verify(store: service.Store, entry_ids: tuple[str, ...]) -> dict[str, Any]:
        """Recompute stored entries from their definitions and check them: chunk
        checksums, the P-positions, the literal rule on the corner, independence,
        symmetry, the invariants. Exit 1 when a check fails."""
        from catalog import service

        return service.verify(store, entry_ids)

    @cli.command(
        help=(
            "Run the HTTP API for one user (use gunicorn for many).\n\n"
            "A request computes at most WYTHOFF_INLINE_SECONDS of expected work "
            f"(default {INLINE_SECONDS:g}; more gets a 422 naming budget and "
            "estimate) and waits at most WYTHOFF_CLAIM_WAIT_SECONDS (default "
            f"{CLAIM_WAIT_SECONDS:g}) for another process computing the same "
            "entry (then a 503 with Retry-After), or, when that process computes "
            f"what the request asks, up to {OVERRUN} budgets, without a compute "
            "slot or quota. One user has no quota of "
            "computation (WYTHOFF_QUOTA_SECONDS sets one); computations run "
            "WYTHOFF_COMPUTE_SLOTS at once (default: half the cores), others "
            "get a 429 with Retry-After, which the notebook client waits on."
        )
    )
    @click.option("--host", default="127.0.0.1", show_default=True)
    @click.option("--port", default=8000, show_default=True, type=Integer(0, 65535))
    @db_option
    @click.pass_obj
    def serve(obj: LazyStore, host: str, port: int, db: str | None) -> None:
        from werkzeug.serving import run_simple

        from catalog.api import create_app
        from catalog.api.serving import JSONErrorsHandler

        config: dict[str, Any] = {"DATABASE_URL": db or obj.db}
        if "WYTHOFF_QUOTA_SECONDS" not in os.environ:
            config["QUOTA_SECONDS"] = 0  # one user's own server
        app = create_app(config)
        run_simple(host, port, app, threaded=True, request_handler=JSONErrorsHandler)

    @cli.group()
    def db() -> None:
        """Database administration."""

    @db.command()
    @common
    def reindex(store: service.Store) -> dict[str, Any]:
        """Rebuild the search index from the stored sequences."""
        from catalog import service

        return service.reindex(store)

    @db.command("copy")
    @click.option(
        "--to",
        "to",
        required=True,
        metavar="URL",
        help="The database to copy into: sqlite:///FILE or postgresql+psycopg://…",
    )
    @common
    def copy_catalog(store: service.Store, to: str) -> dict[str, Any]:
        """Copy the whole catalog into another database (a snapshot): the same
        IDs, labels, stored P-positions, sequences, search index and
        invariants. Run again, it completes an interrupted copy and changes
        nothing after a whole one; a target holding another catalog is refused.
        Every chunk is checked against its checksum afterwards."""
        import sys

        from catalog import service
        from catalog.store import copy as copying

        if not sys.stderr.isatty():
            return service.copy_catalog(store, to)
        bar = click.progressbar(
            length=copying.rows(store.engine), label="copying", file=sys.stderr
        )
        with bar:
            return service.copy_catalog(store, to, bar.update)

    @db.command()
    @common
    def upgrade(store: service.Store) -> dict[str, Any]:
        """Migrate the database to the newest schema."""
        store.engine  # noqa: B018  (building the engine runs the migrations)
        return {
            "database": store.engine.url.render_as_string(hide_password=True),
            "revision": "head",
        }
