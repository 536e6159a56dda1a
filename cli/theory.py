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

    @cli.command()
    @click.argument("source", required=False, metavar="[-]")
    @click.option("--positions", help='The P-positions, e.g. "0,0 1,2 2,1".')
    @click.option(
        "--file",
        "path",
        type=click.File("r"),
        help="A file of P-positions, one pair x,y a line, or the JSON body of "
        "POST /api/v1/identify (- for stdin).",
    )
    @click.option(
        "--grid",
        type=click.File("r"),
        help="A file of lines of P and . (the last line is y = 0).",
    )
    @click.option(
        "--n",
        "n",
        type=Integer(1),
        help="The window x, y < N (default: one more than the largest coordinate).",
    )
    @click.option("--symmetric", is_flag=True, help="Add each pair's mirror image.")
    @click.option(
        "--limit",
        type=Integer(1),
        default=5,
        show_default=True,
        help="Most rule sets (and altered games) to list.",
    )
    @click.option(
        "--seconds",
        type=click.FloatRange(0.1, 3600),
        default=60,
        show_default=True,
        help="Stop the search after this long.",
    )
    @common
    def identify(
        store: service.Store,
        source: str | None,
        positions: str | None,
        path: Any,
        grid: Any,
        n: int | None,
        symmetric: bool,
        limit: int,
        seconds: float,
    ) -> dict[str, Any]:
        """Which games have exactly these P-positions below N: stored entries,
        the maximal game, the smallest rule sets and altered games."""
        import sys

        from catalog.errors import BadInput
        from catalog.inputs import SPACE
        from catalog.service import identify as found

        given = [x for x in (source, positions, path, grid) if x is not None]
        if len(given) != 1:
            raise BadInput(
                "give the data once: --positions, --file, --grid or - (stdin)"
            )
        if source is not None and source != "-":
            raise BadInput(f"unexpected argument {source!r}: use --file to read one")
        if grid is not None:
            cells, size = found.parse_grid(grid.read())
            if n is not None and n != size:
                raise BadInput(f"--n: the grid is {size} lines, not {n}")
            n = size
        else:
            text = (
                positions
                if positions is not None
                else (path.read() if path is not None else sys.stdin.read())
            )
            if text.lstrip(SPACE).startswith(("{", "[")):
                # The API's JSON body, read as the API reads it.
                body = found.read_body(text)
                cells = body.positions
                n, symmetric, limit = (
                    _once(name, given, option)
                    for name, given, option in (
                        ("n", body.n, n),
                        ("symmetric", body.symmetric, symmetric),
                        ("limit", body.limit, limit),
                    )
                )
            else:
                cells = found.parse_pairs(text)
        return found.identify(store, cells, n, symmetric, limit, seconds)

    @cli.command()
    @click.argument("entry_id", metavar="ID")
    @click.option(
        "--n",
        "n",
        type=Integer(1),
        required=True,
        help="Moves with both components below N.",
    )
    @common
    def extensions(store: service.Store, entry_id: str, n: int) -> dict[str, Any]:
        """What can be adjoined to the entry's rules, and what dropped, without
        changing its P-positions (the DFNR question)."""
        from catalog.service import identify as found

        return found.extensions(store, entry_id, n)


def _once(name: str, given: Any, option: Any) -> Any:
    """A field of identify's JSON body, or the option's value when the body
    leaves it out; both given is an error (which one was meant?)."""
    from click.core import ParameterSource

    from catalog.errors import BadInput

    if given is None:
        return option
    source = click.get_current_context().get_parameter_source(name)
    if source not in (None, ParameterSource.DEFAULT):
        raise BadInput(f"--{name}: also given in the body; give it once")
    return given


def render(doc: dict[str, Any]) -> str | None:
    """The text of an identify or extensions document, or None."""
    if "maximal" in doc and "games" in doc:
        return render_identify(doc)
    if "droppable" in doc:
        return render_extensions(doc)
    return None


def _rules(definition: dict[str, Any]) -> str:
    parts = []
    inner = definition.get("star")
    if isinstance(inner, dict):
        parts.append(f"⋆ of ({_rules(inner)})")
    if definition.get("beatty"):
        parts.append(f"the Beatty pairs of α = {definition['beatty']}")
    if definition.get("rays"):
        parts.append("rays " + " ".join(f"({a},{b})" for a, b in definition["rays"]))
    if definition.get("moves"):
        parts.append("moves " + " ".join(f"({a},{b})" for a, b in definition["moves"]))
    for cone in definition.get("cones") or ():
        parts.append("cone " + _cone(cone))
    alter = definition.get("alter") or {}
    for kind in ("P", "N"):
        if alter.get(kind):
            cells = " ".join(f"({x},{y})" for x, y in alter[kind])
            parts.append(f"forced {kind} {cells}")
    return "; ".join(parts) or "no moves"


def _cone(cone: dict[str, Any]) -> str:
    """A cone as its inequalities: ``-1 <= l - k <= 1``-style, short."""
    (s1, t1), hi = cone["lo"], cone["hi"]
    text = f"l >= {s1}k{t1:+d}"
    if hi is not None:
        text += f", l <= {hi[0]}k{hi[1]:+d}"
    if cone.get("mod"):
        text += f", l = k mod {cone['mod']}"
    return f"[{text}{', mirrored too' if cone.get('symmetric') else ''}]"


#: Rays of the maximal game shown at a terminal; ``--json`` has them all.
SHOWN_RAYS = 12


def render_identify(doc: dict[str, Any]) -> str:
    n = doc["n"]
    lines = [
        f"{doc['cells']} P-positions in the window x, y < {n}"
        + (" (symmetric)" if doc["symmetric"] else "")
    ]
    if doc["catalog"]:
        lines.append(f"Stored entries with exactly these P-positions below {n}:")
        lines += [
            f"  {e['id']}  {e['label'] or '':<20} {e['name']}" for e in doc["catalog"]
        ]
        more = doc.get("catalog_total", 0) - len(doc["catalog"])
        if more > 0:
            lines.append(f"  … and {more} more")
    else:
        lines.append(f"No stored entry has exactly these P-positions below {n}.")
    every = doc["maximal"]["rays"]
    rays = " ".join(f"({a},{b})" for a, b in every[:SHOWN_RAYS]) or "none"
    if len(every) > SHOWN_RAYS:
        rays += f" … ({len(every)} rays in all; --json lists them)"
    if doc["invariant"]:
        lines.append(
            "An invariant game has them. The maximal game (every move "
            "that joins no two of them):"
        )
    else:
        cells = " ".join(f"({x},{y})" for x, y in doc["maximal"]["unreached"][:5])
        lines.append(
            "No invariant game has them: even the maximal game has no "
            f"move into them from {cells}. The maximal game:"
        )
    lines.append(f"  rays {rays}; {doc['maximal']['moves']} other moves")
    for title, games in (
        ("Smallest rule sets", doc["games"]),
        ("Smallest altered games", doc["altered"]),
    ):
        if games:
            least = min(g["size"] for g in games)
            lines.append(f"{title} (size {least}):")
            for g in games:
                where = f"  = {g['id']}" if g["id"] else ""
                size = f"(size {g['size']}) " if g["size"] != least else ""
                lines.append(f"  {size}{_rules(g['definition'])}{where}")
    if not doc["exact"]:
        lines.append(
            f"The search stopped before proving the least size "
            f"(at least {doc['bound']})."
        )
    lines += [f"Note: {note}." for note in doc.get("notes") or ()]
    lines.append(f"Not seen: {doc['unseen']}.")
    lines.append(f"({doc['seconds']:.2f} s)")
    return "\n".join(lines)


def render_extensions(doc: dict[str, Any]) -> str:
    n = doc["n"]
    add = doc["adjoinable"]
    rays = " ".join(f"({a},{b})" for a, b in add["rays"]) or "none"
    lines = [
        f"{doc['id']}: moves with both components below {n}, checked against "
        f"its P-positions below {doc['checked_below']}",
        f"  can be adjoined: rays {rays}; {len(add['moves'])} single moves",
    ]
    if add["moves"]:
        lines.append(
            "    "
            + " ".join(f"({a},{b})" for a, b in add["moves"][:60])
            + (" …" if len(add["moves"]) > 60 else "")
        )
    dropped = (
        " ".join(
            f"{d['kind']} ({d['step'][0]},{d['step'][1]})" for d in doc["droppable"]
        )
        or "none"
    )
    lines.append(f"  can be dropped one at a time: {dropped}")
    if doc["smallest"]:
        lines.append(
            f"  a smallest rule set with the same P-positions below {n}: "
            f"{_rules(doc['smallest']['definition'])}"
        )
    return "\n".join(lines)
