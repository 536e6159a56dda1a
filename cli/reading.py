"""Reading the catalog: ``show``, ``is-p``, ``positions``, ``list``,
``search`` and ``export`` (``positions`` computes what is not stored yet)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from catalog.cli.params import Integer
from catalog.inputs import MAX_LIST_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET

if TYPE_CHECKING:
    from catalog import service


def register(cli: click.Group) -> None:
    """Add the reading commands to the ``wythoff`` group."""
    from catalog.cli.main import common, filled, n_option

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @common
    def show(store: service.Store, entry_id: str) -> dict[str, Any]:
        """Show an entry: definition, invariants, what is computed."""
        from catalog import service

        return service.show(store, entry_id)

    @cli.command("list")
    @click.option("--keyword", help="Only entries with this keyword.")
    @click.option("--family", metavar="NAME", help="Only members of this family.")
    @click.option(
        "--where",
        "where",
        multiple=True,
        metavar="'FIELD OP VALUE'",
        help="Only entries where FIELD OP VALUE holds (OP one of = != < <= > >=; "
        "a pair as offset=12,7; with --family also its parameters, e.g. k=2). "
        "Repeat for more conditions.",
    )
    @click.option(
        "--sort",
        metavar="FIELD",
        help="Order by FIELD (-FIELD: descending), then ID; entries without it "
        "are left out.",
    )
    @click.option("--after", metavar="ID", help="Start after this entry (ID or label).")
    @click.option(
        "--limit",
        type=Integer(1, MAX_LIST_LIMIT),
        default=100,
        show_default=True,
    )
    @common
    def list_(
        store: service.Store,
        keyword: str | None,
        family: str | None,
        where: tuple[str, ...],
        sort: str | None,
        after: str | None,
        limit: int,
    ):
        """List entries in ID order, or filtered and sorted by their invariants
        (fields: offset, offset_dx, offset_dy, defects, saturation_column,
        deviations, deviations_min, deviations_max, adjoined_moves,
        one_p_per_column, symmetric, xref_class)."""
        from catalog import service

        page = service.list_entries(
            store, keyword, after, limit + 1, family=family, where=where, sort=sort
        )
        more = len(page["entries"]) > limit
        page["entries"] = page["entries"][:limit]
        # The --after of the next page (None: this is the last one).
        page["next"] = page["entries"][-1]["id"] if more else None
        return page

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @n_option
    @common
    def positions(store: service.Store, entry_id: str, n: int) -> dict[str, Any]:
        """Every P-position with x < N and y < N, sorted by x then y."""
        from catalog import service

        return filled(
            store,
            entry_id,
            n,
            "computing",
            lambda up: service.positions(store, entry_id, n, up),
        )

    @cli.command("is-p")
    @click.argument("entry_id", metavar="ID")
    @click.argument("x", type=Integer())
    @click.argument("y", type=Integer())
    @common
    def is_p(store: service.Store, entry_id: str, x: int, y: int) -> dict[str, Any]:
        """Is (X, Y) a P-position? If not, a winning move."""
        from catalog import service

        return service.is_p(store, entry_id, x, y)

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @click.option(
        "--format",
        "fmt",
        type=click.Choice(["bfile", "csv", "json", "oeis"]),
        default="json",
        show_default=True,
    )
    @click.option(
        "--n",
        "n",
        type=Integer(0),
        default=1000,
        show_default=True,
        help="Bound: positions with x < N and y < N.",
    )
    @common
    def export(store: service.Store, entry_id: str, fmt: str, n: int):
        """Write an entry's P-positions (csv, json), its main sequence as an OEIS
        b-file, or the entry in the OEIS internal format (oeis). N is the
        window x, y < N, not a number of terms: the file holds what lies in
        it, and stderr says how much."""
        import json

        from catalog import service

        result = service.export(store, entry_id, fmt, n)
        if isinstance(result, dict):  # --format json is JSON, --json or not
            note = f"{result['id']}: {len(result['positions'])} P-positions"
            result = json.dumps(result) + "\n"
        else:
            lines = [x for x in result.splitlines() if x and not x.startswith("#")]
            rows = len(lines) - (fmt == "csv")
            unit = {"csv": "P-positions", "bfile": "terms"}.get(fmt)
            note = f"{entry_id}: {rows} {unit}" if unit else ""
        if note:
            click.echo(f"{note} from the window x, y < {n}", err=True)
        return result

    @cli.command()
    @click.argument("terms", metavar="TERMS")
    @click.option(
        "--offset",
        type=Integer(0, MAX_SEARCH_OFFSET),
        default=0,
        help="Skip this many.",
    )
    @click.option(
        "--limit", type=Integer(1, MAX_SEARCH_LIMIT), default=50, show_default=True
    )
    @common
    def search(
        store: service.Store, terms: str, offset: int, limit: int
    ) -> dict[str, Any]:
        """Entries whose sequences contain TERMS (e.g. 1,3,4,6) consecutively;
        also id:W000004, keyword:maharaja or words of the name."""
        from catalog import service
        from catalog.errors import BadInput

        try:
            return service.search(store, terms, offset, limit)
        except BadInput as exc:  # the API's q is TERMS here
            text = str(exc)
            if text.startswith("q: "):
                raise BadInput("TERMS: " + text.removeprefix("q: ")) from None
            raise
