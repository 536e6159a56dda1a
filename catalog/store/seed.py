"""Load the seed files: one JSON file per entry, with a fixed ID.

Idempotent: an unchanged file changes nothing, an edited one updates its
entry in place (same ID), and nothing is ever duplicated.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.errors import BadInput
from catalog.games.definition import DefinitionError, canonicalize
from catalog.store import repository as repo
from catalog.store.ids import format_id, parse_id

REQUIRED = ("id", "name", "definition", "description", "references", "keywords")


class SeedError(BadInput):
    """A seed file that cannot be loaded; the message names the file."""


def seed_dir() -> Path:
    """The seed files shipped with the package."""
    return Path(str(files("catalog.seeds")))


def read_seed(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SeedError(f"{path.name}: {exc}") from None
    if not isinstance(data, dict):
        raise SeedError(f"{path.name}: must hold a JSON object")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise SeedError(f"{path.name}: missing {', '.join(missing)}")
    try:
        number = parse_id(data["id"])
        data["game"] = canonicalize(data["definition"])
    except (ValueError, DefinitionError) as exc:
        raise SeedError(f"{path.name}: {exc}") from None
    if path.stem != format_id(number):
        raise SeedError(f"{path.name}: file name does not match id {data['id']}")
    data["number"] = number
    return data


def load_seeds(session: Session, path: Path | None = None) -> dict[str, list[str]]:
    """Load every ``W??????.json`` in ``path`` (default: the shipped seeds).

    Returns ``{"added": [...], "updated": [...], "unchanged": [...]}`` of IDs.
    Raises :class:`SeedError` before writing anything if a file is invalid or
    two files describe the same game.
    """
    folder = path or seed_dir()
    seeds = [read_seed(p) for p in sorted(folder.glob("W*.json"))]
    keys: dict[str, str] = {}
    for seed in seeds:
        other = keys.setdefault(seed["game"].key, seed["id"])
        if other != seed["id"]:
            raise SeedError(f"{seed['id']} and {other} define the same game")
    report: dict[str, list[str]] = {"added": [], "updated": [], "unchanged": []}
    # The catalog's state for the seeds' numbers and games, read in a few
    # statements and kept in step with the loop's updates: a seed may take
    # the game another seed's entry held before the files were edited. The
    # games first: another process seeding at once may commit between the
    # reads (PostgreSQL, read committed), and an entry seen without its game
    # is updated as it stands, where a game seen without its entry read as
    # "already entry W000001" of the entry itself.
    holders = {
        key: entry.id for key, entry in repo.entries_by_key(session, list(keys)).items()
    }
    numbers = [seed["number"] for seed in seeds]
    entries = {
        entry.id: entry
        for chunk in repo.chunked(numbers)
        for entry in session.scalars(select(repo.Entry).where(repo.Entry.id.in_(chunk)))
    }
    new: list[repo.NewEntry] = []
    for seed in seeds:
        fields = {
            "name": seed["name"],
            "description": seed["description"],
            "references": seed["references"],
            "keywords": seed["keywords"],
            "provenance": seed.get("provenance", ""),
        }
        game = seed["game"]
        wid = format_id(seed["number"])
        entry = entries.get(seed["number"])
        if entry is None:
            holder = holders.get(game.key)
            if holder is not None:
                raise SeedError(f"{wid}: its game is already entry {format_id(holder)}")
            new.append(
                repo.NewEntry(
                    game,
                    seed["number"],
                    **{**fields, "name": fields["name"] or repo.default_name(game)},
                    source="seed",
                )
            )
            holders[game.key] = seed["number"]
            report["added"].append(wid)
            continue
        old = entry.key
        if old != game.key and holders.get(game.key) is not None:
            raise SeedError(f"{wid}: its new game is already another entry")
        if repo.update_entry(session, entry, game, source="seed", **fields):
            report["updated"].append(wid)
        else:
            report["unchanged"].append(wid)
        if old != game.key:  # keys are unique: the old one is free now
            holders.pop(old, None)
            holders[game.key] = entry.id
    repo.add_entries(session, new)
    return report
