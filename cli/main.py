"""The ``wythoff`` command: a thin layer over :mod:`catalog.service`.

Nothing heavy is imported at module level: ``wythoff --help`` loads click
and this package only, and each command imports the service (SQLAlchemy,
numpy) when it runs; numba is imported only when a kernel is called
(:mod:`catalog.compute.jit`). ``tests/cli/test_startup.py`` holds this.
"""

from __future__ import annotations

import functools
import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from catalog.cli import families as families_commands
from catalog.cli import jobs as jobs_commands
from catalog.cli.params import Integer, user_error
from catalog.config import CLAIM_WAIT_SECONDS, INLINE_SECONDS, Settings
from catalog.errors import CatalogError
from catalog.inputs import MAX_LIST_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET

if TYPE_CHECKING:
    from catalog import service

CONTEXT = {"help_option_names": ["-h", "--help"]}


class LazyStore:
    """Builds the store on first use, so ``--help`` never touches a database."""

    def __init__(self) -> None:
        self.db: str | None = None
        self.as_json = False
        self._store: service.Store | None = None

    @property
    def store(self) -> service.Store:
        service = _service()
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


class Streamed:
    """A document printed piece by piece (a Grundy table of up to 10^8
    values): ``json`` with ``--json``, ``text`` without."""

    def __init__(self, json: Iterable[str], text: Iterable[str]) -> None:
        self.json, self.text = json, text


def emit(result: Any, as_json: bool) -> None:
    if isinstance(result, str):  # a file's contents (export): printed as is
        click.echo(result, nl=False)
    elif isinstance(result, Streamed):
        for piece in result.json if as_json else result.text:
            click.echo(piece, nl=False)
        click.echo()
    elif as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(render(result))


def render(doc: dict[str, Any]) -> str:
    """A readable form of a result document."""
    from catalog.cli import families, jobs

    text = families.render(doc) or jobs.render(doc)
    if text is not None:
        return text
    if "entries" in doc and "ok" in doc:
        lines = []
        for e in doc["entries"]:
            lines.append(f"{e['id']}  {'ok' if e['ok'] else 'FAILED'}  (n = {e['n']})")
            lines += [f"  {name:<12} {result}" for name, result in e["checks"].items()]
        lines.append("all checks passed" if doc["ok"] else "some checks FAILED")
        return "\n".join(lines)
    if "entries" in doc:
        shown = list(dict.fromkeys(k for e in doc["entries"] for k in e["values"]))
        rows = [
            (
                e["id"],
                e["label"] or "",
                *(json.dumps(e["values"].get(k)) for k in shown),
                e["name"],
            )
            for e in doc["entries"]
        ]
        return table(("ID", "LABEL", *(k.upper() for k in shown), "NAME"), rows)
    if "results" in doc and "query" in doc:
        return render_search(doc)
    if "positions" in doc and "n" in doc:
        pairs = " ".join(f"({x},{y})" for x, y in doc["positions"])
        count = len(doc["positions"])
        return f"{doc['id']}: {count} P-positions with x, y < {doc['n']}\n{pairs}"
    if "adjoinable" in doc:
        i, j = doc["move"]
        verdict = "can" if doc["adjoinable"] else "cannot"
        line = f"({i},{j}) and ({j},{i}) {verdict} be added to Wythoff's Nim: "
        line += doc["reason"]
        if doc["witness"]:
            (a, b), (c, d) = doc["witness"]["from"], doc["witness"]["to"]
            line += f", e.g. ({a},{b}) -> ({c},{d})"
        return line
    if "outcome" in doc:
        x, y = doc["position"]
        article = "an" if doc["outcome"] == "N" else "a"
        line = f"{doc['id']} ({x},{y}) is {article} {doc['outcome']}-position"
        if doc["move_to"]:
            line += f"; win by moving to ({doc['move_to'][0]},{doc['move_to'][1]})"
        return line
    if "definition" in doc and "invariants" in doc:
        return render_entry(doc)
    return render_fields(doc)


def render_search(doc: dict[str, Any]) -> str:
    results = doc["results"]
    if not results:
        return f"no entries match {doc['query']}"
    keys = [k for k in ("sequence", "index") if any(k in r for r in results)]
    rows = [(r["id"], *(str(r.get(k, "")) for k in keys), r["name"]) for r in results]
    lines = [table(("ID", *(k.upper() for k in keys), "NAME"), rows)]
    if doc.get("next") is not None:
        lines.append(f"more: --offset {doc['next']}")
    return "\n".join(lines)


def render_fields(doc: dict[str, Any]) -> str:
    """One field a line; a field made of records (sequences, references)
    gets a line per record, indented under it."""
    lines = []
    width = max(len(k) for k in doc)
    for key, value in doc.items():
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) for v in value.values())
        ):
            lines.append(key)
            inner = max(len(k) for k in value)
            lines += [f"  {k:<{inner}}  {readable(v)}" for k, v in value.items()]
        elif (
            isinstance(value, list)
            and value
            and all(isinstance(v, dict) for v in value)
        ):
            lines.append(key)
            lines += [f"  {readable(v)}" for v in value]
        else:
            lines.append(f"{key:<{width}}  {readable(value)}")
    return "\n".join(lines)


def readable(value: Any) -> str:
    """A value as a person reads it: no ``None``, no JSON brackets."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "-"
        if all(_is_pair(v) for v in value):
            return " ".join(f"({v[0]},{v[1]})" for v in value)
        if all(not isinstance(v, dict | list) for v in value):
            return ", ".join(readable(v) for v in value)
        return "; ".join(readable(v) for v in value)
    if isinstance(value, dict):
        shown = [(k, v) for k, v in value.items() if v is not None]
        return "; ".join(f"{k} {readable(v)}" for k, v in shown) or "-"
    return str(value)


def _is_pair(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in value)
    )


def render_entry(doc: dict[str, Any]) -> str:
    """``wythoff show``: the fields, then each invariant with its status, then
    the dictionary as a table."""
    theory = doc["invariants"]
    fields = {k: v for k, v in doc.items() if k not in ("invariants", "dictionary")}
    lines = [render_fields(fields)]
    if theory:
        lines.append("\ninvariants")
        for name, item in theory.items():
            if name.startswith("dictionary"):
                continue
            value = item["value"]
            if name == "overlap":
                value = f"{value[-1][1]} at n = {value[-1][0]}"
            elif name == "adjoined_moves":
                moves = ", ".join(
                    f"({m['move'][0]},{m['move'][1]}) {m['reason']}"
                    for m in value["moves"]
                )
                same = "yes" if value["same_p_positions_as_wythoff"] else "no"
                value = f"Wythoff's P-positions: {same} ({moves})"
            elif isinstance(value, dict):
                value = ", ".join(f"{k} = {v}" for k, v in value.items())
                if name == "far_out":  # what an "observed" rests on
                    value += f", checked on {item['checked_to']} columns"
            lines.append(f"  {name:<11} {value}  [{item['status']}: {item['source']}]")
    book = theory.get("dictionary")
    if book:
        equations = (book.get("paper") or {}).get("equations", {})
        lines.append(
            f"\ndictionary ({book['source']}; rule {book['rule']}, "
            f"{book['columns']} columns read from column {book['start']})"
        )
        rows = [
            (
                w,
                t,
                equations.get(w, "new"),
                str(book["first"][w]),
                str(book["counts"][w]),
            )
            for w, t in book["value"].items()
        ]
        header = ("WORD", "TRANSLATE", "PAPER", "FIRST", "COUNT")
        lines.append(table(header, rows))
        unseen = (book.get("paper") or {}).get("not_seen", [])
        if unseen:
            lines.append(
                f"paper words not seen in the columns read: {', '.join(unseen)}"
            )
        for problem in book["problems"]:
            lines.append(f"  problem: {problem}")
    return "\n".join(lines)


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [header, *rows])


def with_progress(store: service.Store, wid: str, n: int, label: str, as_bar: bool):
    """A click progress bar on stderr over the columns still to compute."""
    from catalog import service

    total = service.work_needed(store, wid, n)
    if total < 2_000 or not as_bar:
        return None, None
    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    return bar, bar.update


@click.group(context_settings=CONTEXT)
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
            return {**report, "jobs": jobs_commands.queue_seeded(store, ids, n)}
        hidden = not sys.stderr.isatty()
        with click.progressbar(
            ids, label="computing", file=sys.stderr, hidden=hidden
        ) as bar:
            for wid in bar:
                service.compute(store, wid, n)
                service.entry_invariants(store, service.entry_number(store, wid))
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
    help="Order by FIELD (-FIELD: descending), then ID; entries without it are "
    "left out.",
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
    deviation, deviation_min, deviation_max, adjoined, one_p_per_column,
    symmetric, xref_class)."""
    from catalog import service

    return service.list_entries(
        store, keyword, after, limit, family=family, where=where, sort=sort
    )


def _n_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--n",
        "n",
        type=Integer(0),
        required=True,
        help="Bound: positions with x < N and y < N.",
    )(func)


def _filled(store: service.Store, wid: str, n: int, label: str, call):
    bar, update = with_progress(store, wid, n, label, sys.stderr.isatty())
    if bar is None:
        return call(None)
    with bar:
        return call(update)


@cli.command()
@click.argument("entry_id", metavar="ID")
@_n_option
@common
def positions(store: service.Store, entry_id: str, n: int) -> dict[str, Any]:
    """Every P-position with x < N and y < N, sorted by x then y."""
    from catalog import service

    return _filled(
        store,
        entry_id,
        n,
        "computing",
        lambda up: service.positions(store, entry_id, n, up),
    )


@cli.command()
@click.argument("entry_id", metavar="ID")
@_n_option
@common
def compute(store: service.Store, entry_id: str, n: int) -> dict[str, Any]:
    """Compute and store an entry up to N without printing the positions."""
    from catalog import service

    return _filled(
        store,
        entry_id,
        n,
        "computing",
        lambda up: service.compute(store, entry_id, n, up),
    )


@cli.command()
@click.argument("entry_id", metavar="ID")
@_n_option
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
@click.argument("entry_ids", metavar="[ID]...", nargs=-1)
@common
def verify(store: service.Store, entry_ids: tuple[str, ...]) -> dict[str, Any]:
    """Recompute stored entries from their definitions and check them: chunk
    checksums, the P-positions, the literal rule on the corner, independence,
    symmetry, the invariants. Exit 1 when a check fails."""
    from catalog import service

    return service.verify(store, entry_ids)


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
    b-file, or the entry in the OEIS internal format (oeis)."""
    from catalog import service

    return service.export(store, entry_id, fmt, n)


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
def search(store: service.Store, terms: str, offset: int, limit: int) -> dict[str, Any]:
    """Entries whose sequences contain TERMS (e.g. 1,3,4,6) consecutively;
    also id:W000004, keyword:maharaja or words of the name."""
    from catalog import service

    return service.search(store, terms, offset, limit)


@cli.command(
    help=(
        "Run the HTTP API for one user (use gunicorn for many).\n\n"
        "A request computes at most WYTHOFF_INLINE_SECONDS of expected work "
        f"(default {INLINE_SECONDS:g}; more gets a 422 naming budget and estimate) "
        "and waits at most WYTHOFF_CLAIM_WAIT_SECONDS (default "
        f"{CLAIM_WAIT_SECONDS:g}) for another process computing the same entry "
        "(then a 503 with Retry-After)."
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

    app = create_app({"DATABASE_URL": db or obj.db})
    run_simple(host, port, app, threaded=True, request_handler=JSONErrorsHandler)


families_commands.register(cli)
jobs_commands.register(cli)


@cli.group()
def db() -> None:
    """Database administration."""


@db.command()
@common
def reindex(store: service.Store) -> dict[str, Any]:
    """Rebuild the search index from the stored sequences."""
    from catalog import service

    return service.reindex(store)


@db.command()
@common
def upgrade(store: service.Store) -> dict[str, Any]:
    """Migrate the database to the newest schema."""
    store.engine  # noqa: B018  (building the engine runs the migrations)
    return {
        "database": store.engine.url.render_as_string(hide_password=True),
        "revision": "head",
    }
