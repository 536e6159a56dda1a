"""Writing to the catalog: ``seed``, ``add`` and ``compute``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from catalog.cli import jobs
from catalog.cli.output import count, ranges
from catalog.cli.params import Integer

if TYPE_CHECKING:
    from catalog import service


def render(doc: dict[str, Any]) -> str | None:
    """The text form of ``seed``'s report: how many entries were added,
    updated or already there, each family's members, the range of the
    jobs queued; the IDs themselves are under ``--json``. None for other
    documents."""
    if not {"added", "updated", "unchanged"} <= set(doc):
        return None
    states = ("added", "updated", "unchanged")
    lines = ["entries: " + ", ".join(f"{len(doc[s]):,} {s}" for s in states)]
    for name, found in doc.get("families", {}).items():
        there = found["members"] - found["added"]
        lines.append(
            f"{name}: {count(found['members'], 'member')}, "
            f"{found['added']:,} added, {there:,} already there"
        )
    if "jobs" in doc:
        queued = doc["jobs"]
        lines.append(
            f"queued: {count(len(queued), 'job')} ({ranges(queued)}); "
            "'wythoff jobs' follows them, 'wythoff worker' runs them"
        )
    lines.append("every ID: wythoff seed … --json")
    return "\n".join(lines)


def register(cli: click.Group) -> None:
    """Add the writing commands to the ``wythoff`` group."""
    from catalog.cli.main import common, filled, n_option

    @cli.command()
    @click.option(
        "--path",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="Folder of seed files (default: the shipped seeds).",
    )
    @click.option(
        "--n",
        "n",
        type=Integer(0, 100_000),
        default=2000,
        show_default=True,
        help="Also compute each seeded entry up to N (0: do not compute).",
    )
    @click.option(
        "--family",
        metavar="NAME[,NAME...]",
        is_flag=False,
        flag_value="all",
        default=None,
        help="Also seed these families' members ('--family' alone or 'all': every "
        "family; see 'wythoff families').",
    )
    @click.option("--queue", is_flag=True, help="Queue the fills for 'wythoff worker'.")
    @common
    def seed(
        store: service.Store, path: Path | None, n: int, family: str | None, queue: bool
    ) -> dict[str, Any]:
        """Load the seeded entries (idempotent) and, with --family, the members of
        families; compute their first terms and their invariants (with --queue:
        queue them for the workers)."""
        from catalog import service

        if family is not None and path is not None:
            raise click.UsageError("--path and --family cannot be combined")
        report = (
            service.seed_families(store, [family])
            if family is not None
            else service.seed(store, path)
        )
        if n:
            ids = list(
                dict.fromkeys(report["added"] + report["updated"] + report["unchanged"])
            )
            if queue:
                return {**report, "jobs": jobs.queue_seeded(store, ids, n)}
            hidden = not sys.stderr.isatty()
            with click.progressbar(
                length=len(ids), label="computing", file=sys.stderr, hidden=hidden
            ) as bar:
                service.compute_many(store, ids, n, bar.update)
        return report

    @cli.command()
    @click.option("--definition", required=True, help="The game as a JSON object.")
    @click.option("--name", help="A name for a new entry.")
    @common
    def add(store: service.Store, definition: str, name: str | None) -> dict[str, Any]:
        """Add a game; print the ID of its entry (an existing one if equal)."""
        from catalog import service

        return service.add(store, definition, name)

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @n_option
    @common
    def compute(store: service.Store, entry_id: str, n: int) -> dict[str, Any]:
        """Compute and store an entry up to N without printing the positions."""
        from catalog import service

        return filled(
            store,
            entry_id,
            n,
            "computing",
            lambda up: service.compute(store, entry_id, n, up),
        )
