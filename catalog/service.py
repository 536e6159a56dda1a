"""What the command line and the web API do, one function per command.

Each function takes a :class:`Store` and plain arguments and returns one
JSON-ready document; the session lifecycle lives here, not in the callers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from catalog.compute import closed
from catalog.compute.ptable import MAX_BOX_N, column_mode
from catalog.compute.reference import options
from catalog.config import Settings
from catalog.games.definition import canonicalize, check_n, parse_json
from catalog.store import fill as filler
from catalog.store import repository as repo
from catalog.store.db import make_engine, make_sessionmaker, upgrade_to_head
from catalog.store.ids import format_id, parse_id
from catalog.store.models import Entry
from catalog.store.seed import load_seeds

Progress = Callable[[int], None]


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

    def dispose(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()


def _limit(game_is_columns: bool, settings: Settings) -> int:
    return (
        settings.max_compute_n
        if game_is_columns
        else min(MAX_BOX_N, settings.max_compute_n)
    )


def entry_document(session: Session, entry: Entry) -> dict[str, Any]:
    """What ``wythoff show`` prints and ``/api/v1/entries/{id}`` returns."""
    extent = repo.get_extent(session, entry.id)
    offset = session.get(repo.Offset, entry.id)
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
        "offset": {"dx": offset.dx, "dy": offset.dy, "method": offset.method}
        if offset
        else None,
        "defects": offset.defects if offset else None,
        "saturation_column": offset.saturation_column if offset else None,
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
    with store.sessions() as session:
        return entry_document(session, repo.get_entry(session, number))


def list_entries(
    store: Store, keyword: str | None = None, after: str | None = None, limit: int = 100
) -> dict[str, Any]:
    start = parse_id(after) if after else 0
    with store.sessions() as session:
        rows = repo.list_entries(session, keyword=keyword, after=start, limit=limit)
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
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> tuple[int, np.ndarray]:
    """Validate ``n``, compute what is missing, read positions with x, y < n."""
    number, game = _entry_game(store, wid)
    check_n(n, maximum=_limit(column_mode(game), store.settings))
    filler.fill(
        store.sessions,
        number,
        n,
        chunk_columns=store.settings.chunk_columns,
        progress=progress,
    )
    with store.sessions() as session:
        return number, repo.read_positions(session, number, 0, n, n)


def compute(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "count": len(found)}


def positions(
    store: Store, wid: str, n: int, progress: Progress | None = None
) -> dict[str, Any]:
    number, found = _filled(store, wid, n, progress)
    return {"id": format_id(number), "n": n, "positions": found.tolist()}


def work_needed(store: Store, wid: str, n: int) -> int:
    number = parse_id(wid)
    with store.sessions() as session:
        return filler.work_needed(session, number, n)


def is_p(store: Store, wid: str, x: int, y: int) -> dict[str, Any]:
    """Outcome of (x, y), and a winning move (to a P-position) when it is N."""
    number, game = _entry_game(store, wid)
    if closed.is_wythoff(game):
        # Exact for any size of pile: no table needed.
        check_n(x, "x", maximum=10**300)
        check_n(y, "y", maximum=10**300)
        label, to = closed.outcome(x, y)
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
        store.sessions, number, bound, chunk_columns=store.settings.chunk_columns
    )
    with store.sessions() as session:
        found = repo.read_positions(session, number, 0, x + 1, y + 1)
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


def export(store: Store, wid: str, fmt: str, n: int) -> str | dict[str, Any]:
    doc = positions(store, wid, n)
    found = np.asarray(doc["positions"], dtype=np.int64).reshape(-1, 2)
    if fmt == "json":
        return doc
    if fmt == "csv":
        return "x,y\n" + "".join(f"{x},{y}\n" for x, y in found.tolist())
    # b-file: one "index value" line per term of the entry's main sequence.
    with store.sessions() as session:
        sequences = repo.read_sequences(session, parse_id(wid))
    name = next((s for s in ("y", "a") if s in sequences), None)
    if name is None:
        raise ValueError(f"{doc['id']} has no integer sequence to write as a b-file")
    seq = sequences[name]
    header = f"# {doc['id']} sequence {name}, offset {seq['offset']}\n"
    terms = seq["terms"]
    terms = (terms[:n] if name == "y" else terms[terms < n]).tolist()
    return header + "".join(f"{seq['offset'] + i} {v}\n" for i, v in enumerate(terms))
