"""What the command line and the web API do, one function per command.

Each function takes a :class:`Store` and plain arguments and returns one
JSON-ready document; the session lifecycle lives here, not in the callers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from catalog import verify as checking
from catalog.compute import closed, invariants
from catalog.compute.adjoinable import adjoinable as adjoinable_move
from catalog.compute.altered import is_altered_wythoff, saturation
from catalog.compute.farout import FarOut
from catalog.compute.ptable import MAX_BOX_N, column_mode
from catalog.compute.reference import options
from catalog.config import Settings
from catalog.games.definition import (
    Definition,
    DefinitionError,
    canonicalize,
    check_n,
    parse_json,
)
from catalog.store import fill as filler
from catalog.store import repository as repo
from catalog.store import search as searching
from catalog.store.db import make_engine, make_sessionmaker, upgrade_to_head
from catalog.store.ids import format_id, parse_id
from catalog.store.models import Entry
from catalog.store.seed import load_seeds

Progress = Callable[[int], None]
log = logging.getLogger(__name__)


class Store:
    """The database of one catalog, connected and migrated on first use."""

    def __init__(self, settings: Settings, *, migrate: bool = True) -> None:
        self.settings = settings
        self.migrate = migrate

    @cached_property
    def engine(self) -> Engine:
        engine = make_engine(self.settings.database_url)
        if self.migrate:
            upgrade_to_head(engine)
        return engine

    @cached_property
    def sessions(self) -> sessionmaker[Session]:
        return make_sessionmaker(self.engine)

    @cached_property
    def cache(self) -> repo.ChunkCache:
        """Decoded chunks shared by the requests of one process."""
        return repo.ChunkCache()

    def dispose(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()


def _limit(game_is_columns: bool, settings: Settings) -> int:
    return (
        settings.max_compute_n
        if game_is_columns
        else min(MAX_BOX_N, settings.max_compute_n)
    )


def entry_document(
    session: Session, entry: Entry, theory: dict[str, Any]
) -> dict[str, Any]:
    """What ``wythoff show`` prints and ``/api/v1/entries/{id}`` returns."""
    extent = repo.get_extent(session, entry.id)
    offset = theory.get("offset")
    defects = theory.get("defects")
    saturation = theory.get("saturation")
    dictionary = theory.get("dictionary")
    sequences = repo.read_sequences(session, entry.id)
    bitstrings = repo.read_bitstrings(session, entry.id)
    game = canonicalize(entry.definition)
    doc: dict[str, Any] = {
        "id": format_id(entry.id),
        "name": entry.name,
        "definition": entry.definition,
        "description": entry.description,
        "keywords": entry.keywords,
        "references": entry.references,
        "provenance": entry.provenance,
        "source": entry.source,
        "offset": offset["value"] if offset else None,
        "defects": defects["value"] if defects else None,
        "saturation_column": saturation["value"]["column"] if saturation else None,
        "xrefs": [format_id(i) for i in repo.xref_ids(session, entry.id)],
        "computed": {
            "mode": "columns" if column_mode(game) else "box",
            "x_bound": extent.x_bound if extent else 0,
            "y_bound": extent.y_bound if extent else None,
            "count": extent.count if extent else 0,
            "engine": extent.engine if extent else None,
        },
        "sequences": {
            name: {
                "offset": s["offset"],
                "length": s["length"],
                "description": s["description"],
                "first_terms": s["terms"][:20].tolist(),
            }
            for name, s in sequences.items()
        },
        "created": _utc(entry.created_at),
        "updated": _utc(entry.updated_at),
    }
    if dictionary is not None:
        doc["dictionary"] = dictionary["value"]
    doc["invariants"] = theory
    for row in bitstrings:
        if row.kind == "upper-lower":
            doc["bitstring"] = {
                "start": row.start,
                "length": row.length,
                "bits": row.bits[:200],
            }
    return doc


def _utc(moment: datetime) -> str:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment.replace(tzinfo=moment.tzinfo or UTC).isoformat()


def seed(store: Store, path: Path | None = None) -> dict[str, list[str]]:
    with store.sessions.begin() as session:
        return load_seeds(session, path)


def add(store: Store, definition: str, name: str | None = None) -> dict[str, Any]:
    game = parse_json(definition)
    with store.sessions.begin() as session:
        entry, created = repo.add_entry(session, game, name=name)
        return {"id": format_id(entry.id), "created": created}


def show(store: Store, wid: str) -> dict[str, Any]:
    number = parse_id(wid)
    data = entry_invariants(store, number)
    with store.sessions() as session:
        return entry_document(session, repo.get_entry(session, number), data)


def entry_invariants(store: Store, number: int) -> dict[str, Any]:
    """The entry's invariants, computed and stored on first use (they depend
    on the definition only, so every later read is a lookup).

    The computation runs outside any transaction; the write checks that the
    definition is still the one computed for, and computes again if an edit
    came in between. A database that refuses the write (a read-only role)
    still gets the answer, just not cached.
    """
    for _attempt in range(3):
        with store.sessions() as session:
            entry = repo.get_entry(session, number)
            found = repo.read_invariants(session, number, invariants.VERSION)
            definition, key = entry.definition, entry.key
        if found is not None:
            return found
        data = invariants.compute(definition)
        try:
            with filler.writing(store.sessions) as session:
                if repo.get_entry(session, number).key != key:
                    continue  # the definition changed meanwhile
                repo.store_invariants(session, number, invariants.VERSION, data)
        except IntegrityError:
            pass  # another worker stored the same data first
        except DBAPIError as exc:
            log.warning("invariants of %s not stored: %s", format_id(number), exc)
        return data
    raise RuntimeError(f"{format_id(number)}: its definition keeps changing")


def list_entries(
    store: Store,
    keyword: str | None = None,
    after: str | int | None = None,
    limit: int = 100,
    words: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """Entries in ID order after ``after`` (an ID or its number)."""
    start = parse_id(after) if isinstance(after, str) else (after or 0)
    with store.sessions() as session:
        rows = repo.list_entries(
            session, keyword=keyword, words=words, after=start, limit=limit
        )
        return {
            "entries": [
                {"id": format_id(e.id), "name": e.name, "keywords": e.keywords}
                for e in rows
            ]
        }


def _entry_game(store: Store, wid: str):
    number = parse_id(wid)
    with store.sessions() as session:
        entry = repo.get_entry(session, number)
        return number, canonicalize(entry.definition)


def _filled(
    store: Store,
    wid: str,
    n: int,
    progress: Progress | None = None,
    max_columns: int | None = None,
) -> int:
    """Validate ``n`` and compute what is missing; return the entry number."""
    number, game = _entry_game(store, wid)
    check_n(n, maximum=_limit(column_mode(game), store.settings))
    filler.fill(
        store.sessions,
        number,
        n,
        chunk_columns=store.settings.chunk_columns,
        progress=progress,
        max_columns=max_columns,
    )
    return number


def _filled_positions(
    store: Store, wid: str, n: int, progress: Progress | None
) -> tuple[int, np.ndarray]:
    """Fill up to n, then read every P-position with x, y < n."""
    number = _filled(store, wid, n, progress)
    with store.sessions() as session:
        return number, repo.read_positions(session, number, 0, n, n, store.cache)


def compute(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled_positions(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "count": len(found)}


def positions(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled_positions(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "positions": found.tolist()}


def positions_page(
    store: Store,
    wid: str,
    n: int,
    start: tuple[int, int] = (0, 0),
    limit: int = 10_000,
    max_columns: int | None = None,
) -> dict[str, Any]:
    """A page of the P-positions with x, y < n, from ``start`` = (x, y) on.

    ``next`` is where the following page starts, or None on the last page.
    A stored range is read with one light query for the extent and one for
    the chunks' metadata (chunks themselves come from the process's cache).
    """
    number = parse_id(wid)
    with store.sessions() as session:
        if repo.covers(session, number, n):
            page, after = repo.read_page(session, number, n, start, limit, store.cache)
        else:
            page = None
    if page is None:
        _filled(store, wid, n, max_columns=max_columns)
        with store.sessions() as session:
            page, after = repo.read_page(session, number, n, start, limit, store.cache)
    return {
        "id": format_id(number),
        "n": n,
        "positions": page.tolist(),
        "next": list(after) if after else None,
    }


class UnknownSequence(LookupError):
    """The entry has no stored sequence or bit-string of that name."""


def sequence(
    store: Store, wid: str, name: str, start: int = 0, limit: int = 10_000
) -> dict[str, Any]:
    """Stored terms ``start`` .. ``start + limit`` of a derived sequence."""
    number = parse_id(wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        found = repo.read_sequences(session, number).get(name)
    if found is None:
        raise UnknownSequence(f"{format_id(number)} has no stored sequence {name!r}")
    terms = found["terms"][start : start + limit].tolist()
    more = start + limit < found["length"]
    return {
        "id": format_id(number),
        "name": name,
        "offset": found["offset"],
        "length": found["length"],
        "description": found["description"],
        "start": start,
        "terms": terms,
        "next": start + limit if more else None,
    }


def bitstring(store: Store, wid: str) -> dict[str, Any]:
    number = parse_id(wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        rows = {row.kind: row for row in repo.read_bitstrings(session, number)}
    row = rows.get("upper-lower")
    if row is None:
        raise UnknownSequence(
            f"{format_id(number)} has no bit-string: it needs one P-position per "
            "column, computed (wythoff compute)"
        )
    return {
        "id": format_id(number),
        "kind": row.kind,
        "start": row.start,
        "length": row.length,
        "bits": row.bits,
    }


def search(
    store: Store, query: str, offset: int = 0, limit: int = 50
) -> dict[str, Any]:
    """Entries whose stored sequences contain the terms of ``query``
    consecutively (``1,3,4,6``), ranked; or ``id:W…``, ``keyword:…`` and words
    of the name. ``next`` is the offset of the following page, or None."""
    parsed = searching.parse(query)
    with store.sessions() as session:
        results, more = searching.search(session, parsed, offset, limit)
    shown = parsed.get("terms", parsed.get("words"))
    return {
        "query": shown,
        "results": results,
        "next": offset + limit if more else None,
    }


def grundy_table(store: Store, wid: str, n: int) -> dict[str, Any]:
    """Sprague–Grundy values ``grundy[x][y]`` for x, y < n."""
    from catalog.compute.grundy import grundy

    number, game = _entry_game(store, wid)
    if game.altered:
        raise DefinitionError(
            f"{format_id(number)} has alterations: an altered game fixes only P "
            "and N, so its Grundy values are not defined"
        )
    return {"id": format_id(number), "n": n, "grundy": grundy(game, n).tolist()}


def work_needed(store: Store, wid: str, n: int) -> int:
    number = parse_id(wid)
    with store.sessions() as session:
        return filler.work_needed(session, number, n)


#: Coordinates answered exactly without a table (Wythoff's Nim and its
#: altered games); the work grows with the number of digits.
MAX_EXACT_COORDINATE = 10**300


@lru_cache(maxsize=8)
def _far_out(game: Definition) -> FarOut:
    """The saturated state of an altered Wythoff game, kept per process: a
    few MB for the seeds, about 40 MB for an alteration at column 10^6."""
    return FarOut(saturation(game))


def is_p(
    store: Store, wid: str, x: int, y: int, max_columns: int | None = None
) -> dict[str, Any]:
    """Outcome of (x, y), and a winning move (to a P-position) when it is N."""
    number, game = _entry_game(store, wid)
    if closed.is_wythoff(game) or is_altered_wythoff(game):
        # Exact for any size of pile, in O(log) steps: no table needed.
        check_n(x, "x", maximum=MAX_EXACT_COORDINATE)
        check_n(y, "y", maximum=MAX_EXACT_COORDINATE)
        if closed.is_wythoff(game):
            label, to = closed.outcome(x, y)
        else:
            solved = _far_out(game)
            label = "P" if solved.is_p(x, y) else "N"
            to = None if label == "P" else solved.winning_move(x, y)
        return {
            "id": format_id(number),
            "position": [x, y],
            "outcome": label,
            "move_to": list(to) if to else None,
        }
    limit = _limit(column_mode(game), store.settings)
    check_n(x, "x", limit - 1)
    check_n(y, "y", limit - 1)
    bound = max(x, y) + 1
    filler.fill(
        store.sessions,
        number,
        bound,
        chunk_columns=store.settings.chunk_columns,
        max_columns=max_columns,
    )
    with store.sessions() as session:
        found = repo.read_positions(session, number, 0, x + 1, y + 1, store.cache)
    p_set = set(map(tuple, found.tolist()))
    outcome = "P" if (x, y) in p_set else "N"
    move = None
    if outcome == "N":
        move = next((list(o) for o in options(game, x, y) if o in p_set), None)
    return {
        "id": format_id(number),
        "position": [x, y],
        "outcome": outcome,
        "move_to": move,
    }


def verify(store: Store, wids: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """Recompute and check stored entries (all of them when ``wids`` is empty);
    ``ok`` is false when any check failed. Reads only."""
    numbers = [parse_id(w) for w in wids] or None
    with store.sessions() as session:
        reports = checking.verify_entries(session, numbers)
    return {
        "ok": all(r.ok for r in reports),
        "entries": [r.to_json() for r in reports],
    }


def adjoinable(i: int, j: int) -> dict[str, Any]:
    """Can (i, j) and (j, i) join Wythoff's Nim without changing its
    P-positions? Exact for any size; no database needed."""
    return adjoinable_move(i, j).to_json()


#: The sequence an entry is exported as: a_n for symmetric games (the lower
#: Wythoff sequence for W000001), else the column sequence y(x).
MAIN_SEQUENCES = ("a", "y")


def _main_sequence(store: Store, wid: str, n: int) -> tuple[str, int, np.ndarray]:
    """(name, offset, terms) of the main sequence, the terms the bound n covers."""
    number = parse_id(wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        sequences = repo.read_sequences(session, number)
    name = next((s for s in MAIN_SEQUENCES if s in sequences), None)
    if name is None:
        raise UnknownSequence(
            f"{format_id(number)} has no integer sequence to export (it needs whole "
            "columns with one P-position each, or symmetric pairs)"
        )
    seq = sequences[name]
    terms = seq["terms"]
    terms = terms[:n] if name == "y" else terms[terms < n]
    return name, seq["offset"], terms


def bfile(
    store: Store, wid: str, n: int, start: int = 0, limit: int | None = None
) -> str:
    """The main sequence as OEIS b-file lines ``index value``."""
    name, offset, terms = _main_sequence(store, wid, n)
    stop = len(terms) if limit is None else start + limit
    header = f"# {format_id(parse_id(wid))} sequence {name}, offset {offset}\n"
    lines = (
        f"{offset + i} {v}\n" for i, v in enumerate(terms[start:stop].tolist(), start)
    )
    return header + "".join(lines)


def oeis(store: Store, wid: str, n: int) -> str:
    """The entry in the OEIS internal format (%I %S %T %U %N %C %F %Y %K %O)."""
    positions(store, wid, n)
    doc = show(store, wid)
    name, offset, terms = _main_sequence(store, wid, n)
    wid = doc["id"]
    lines = [f"%I {wid}"]
    for tag, text in zip("STU", _term_lines(terms.tolist()), strict=False):
        lines.append(f"%{tag} {wid} {text}")
    what = {
        "a": "a(n) = the smaller coordinate of the n-th P-position pair",
        "y": "a(n) = the row of the P-position in column n",
    }[name]
    lines.append(f"%N {wid} {doc['name']}: {what}.")
    for text in (doc["description"], doc["provenance"]):
        if text:
            lines.append(f"%C {wid} {text}")
    extent = doc["computed"]
    lines.append(
        f"%C {wid} Computed by the Wythoff Variant Catalog up to x < "
        f"{extent['x_bound']} ({extent['engine']})."
    )
    game = canonicalize(doc["definition"])
    if closed.is_wythoff(game) and name == "a":
        lines.append(f"%F {wid} a(n) = floor(n*phi), phi = (1+sqrt(5))/2.")
        lines.append(f"%F {wid} a(n) = (n + floor(sqrt(5*n^2)))/2 (integer division).")
    if doc["xrefs"]:
        lines.append(f"%Y {wid} Cf. {', '.join(doc['xrefs'])}.")
    keywords = ["nonn", *doc["keywords"]]
    lines.append(f"%K {wid} {','.join(keywords)}")
    big = np.flatnonzero(np.abs(terms) > 1)
    lines.append(f"%O {wid} {offset},{int(big[0]) + 1 if big.size else 1}")
    return "\n".join(lines) + "\n"


def _term_lines(terms: list[int], width: int = 69) -> list[str]:
    """Terms for %S, %T and %U: about 260 characters in all, as the OEIS."""
    lines, current = [], ""
    for term in terms:
        piece = f"{term},"
        if len(current) + len(piece) > width:
            lines.append(current)
            current = ""
            if len(lines) == 3:
                break
        current += piece
    if current and len(lines) < 3:
        lines.append(current)
    return lines


def export(store: Store, wid: str, fmt: str, n: int) -> str | dict[str, Any]:
    if fmt == "oeis":
        return oeis(store, wid, n)
    doc = positions(store, wid, n)
    if fmt == "json":
        return doc
    if fmt == "csv":
        return "x,y\n" + "".join(f"{x},{y}\n" for x, y in doc["positions"])
    return bfile(store, wid, n)


def reindex(store: Store) -> dict[str, Any]:
    with filler.writing(store.sessions) as session:
        return {"reindexed": repo.reindex(session)}
