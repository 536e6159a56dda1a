"""``wythoff families`` and ``wythoff table``: families of variants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from catalog.cli.output import table

if TYPE_CHECKING:
    from catalog import service


class Grid(dict):
    """A table document, printed as a grid (``text``) or as CSV."""

    fmt = "text"


def _cell(value: Any) -> str:
    if value is None:
        return "."
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render_grid(doc: dict[str, Any]) -> str:
    """The table with the row parameter down and the column parameter across;
    ``.`` where no stored member has a value."""
    rows, columns = doc["rows"], doc["columns"]
    header = [f"{rows['name']}\\{columns['name']}", *map(str, columns["values"])]
    body = [
        [str(r), *(_cell(v) for v in line)]
        for r, line in zip(rows["values"], doc["cells"], strict=True)
    ]
    if getattr(doc, "fmt", "text") == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(
            [r, *("" if v is None else _cell(v) for v in line)]
            for r, line in zip(rows["values"], doc["cells"], strict=True)
        )
        return out.getvalue().rstrip("\n")
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    title = f"{doc['family']}: {doc['invariant']}"
    lines = [title] + [
        "  ".join(cell.rjust(w) for cell, w in zip(line, widths, strict=True))
        for line in [header, *body]
    ]
    return "\n".join(lines)


def render_families(doc: dict[str, Any]) -> str:
    rows = [
        (
            f["name"],
            str(f["members"]),
            str(f["seeded"]),
            f["first_id"],
            "; ".join(f["parameters"] + f.get("constraints", [])),
            f["title"],
        )
        for f in doc["families"]
    ]
    header = (
        "FAMILY",
        "MEMBERS",
        "SEEDED",
        "FIRST ID",
        "PARAMETERS (AND RULES)",
        "TITLE",
    )
    return table(header, rows)


def register(cli: click.Group) -> None:
    """Add the family commands to the ``wythoff`` group."""
    from catalog.cli.main import common

    @cli.command()
    @common
    def families(store: service.Store) -> dict[str, Any]:
        """List the families of variants: members, how many are seeded, the
        first W-number of their block."""
        from catalog import service

        return service.families(store)

    @cli.command("table")
    @click.argument("family")
    @click.argument("invariant")
    @click.option(
        "--fix",
        "fix",
        multiple=True,
        metavar="NAME=VALUE",
        help="Fix a parameter (families with more than two, e.g. --fix kind=P).",
    )
    @click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "csv"]),
        default="text",
        show_default=True,
    )
    @common
    def table_(
        store: service.Store,
        family: str,
        invariant: str,
        fix: tuple[str, ...],
        fmt: str,
    ) -> dict[str, Any]:
        """Show INVARIANT (offset, defects, deviations, adjoined_moves, id, ...) over
        the two parameters of FAMILY as a grid; '.' where no stored member has
        it."""
        from catalog import service

        doc = Grid(service.table(store, family, invariant, fix))
        doc.fmt = fmt
        return doc


def render(doc: dict[str, Any]) -> str | None:
    """The text form of a family document, or None for other documents."""
    if "cells" in doc and "rows" in doc:
        return render_grid(doc)
    if "families" in doc and "members" not in doc:
        return render_families(doc)
    return None


__all__ = ["Grid", "register", "render"]
