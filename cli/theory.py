"""Questions of game theory: ``grundy`` (an entry's Sprague-Grundy values)
and ``adjoinable`` (moves that may be added to Wythoff's Nim)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from catalog.cli.output import Streamed
from catalog.cli.params import Integer

if TYPE_CHECKING:
    from catalog import service


def register(cli: click.Group) -> None:
    """Add the game-theory commands to the ``wythoff`` group."""
    from catalog.cli.main import common, n_option

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @n_option
    @common
    def grundy(store: service.Store, entry_id: str, n: int) -> Streamed:
        """Sprague-Grundy values grundy[x][y] for x, y < N (games without
        alterations)."""
        from catalog import service
        from catalog.compute.grundy import json_rows

        entry, values = service.grundy_values(store, entry_id, n)

        def text() -> Iterator[str]:
            yield f"{entry}: Grundy values for x, y < {n}, line x lists y = 0..{n - 1}"
            for x in range(n):
                yield "\n" + json_rows(values, x, x + 1)[1:-1].replace(",", " ")

        return Streamed(service.grundy_pieces(entry, values), text())

    @cli.command(context_settings={"ignore_unknown_options": True})
    @click.argument("i", type=Integer())
    @click.argument("j", type=Integer())
    @common
    def adjoinable(store: service.Store, i: int, j: int) -> dict[str, Any]:
        """Can the moves (I,J) and (J,I) be added to Wythoff's Nim without changing
        its P-positions? Exact for any size (Duchene, Fraenkel, Nowakowski, Rigo)."""
        from catalog import service

        return service.adjoinable(i, j)
