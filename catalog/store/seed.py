"""Load the seed files: one JSON file per entry, with a fixed ID.

Idempotent: an unchanged file changes nothing, an edited one updates its
entry in place (same ID), and nothing is ever duplicated.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

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
        entry = session.get(repo.Entry, seed["number"])
        if entry is None:
            holder = repo.find_entry(session, game)
            if holder is not None:
                raise SeedError(
                    f"{wid}: its game is already entry {format_id(holder.id)}"
                )
            repo.add_entry(
                session, game, number=seed["number"], source="seed", **fields
            )
            report["added"].append(wid)
        elif entry.key != game.key and repo.find_entry(session, game) is not None:
            raise SeedError(f"{wid}: its new game is already another entry")
        elif repo.update_entry(session, entry, game, source="seed", **fields):
            report["updated"].append(wid)
        else:
            report["unchanged"].append(wid)
    return report
