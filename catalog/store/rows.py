"""A new entry's rows, written with Core statements alone.

``wythoff add`` writes one entry on a plain connection
(:func:`add_game`): importing the ORM and mapping the models would be a
fifth of its start. The ORM's :func:`catalog.store.entries.add_entry` and
the batches' :func:`catalog.store.entries.add_entries` build the same rows
from the same functions here; ``tests/store/test_rows.py`` holds that the
two ways of adding store the same rows.

Every function takes the session or connection first and never creates,
commits or closes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Table, insert, select
from sqlalchemy.exc import IntegrityError

from catalog.games.definition import Definition
from catalog.store import tables
from catalog.store.db import Reader
from catalog.store.ids import next_free

#: Keys or numbers looked up in one statement (SQLite allows 32766 variables).
IN_CHUNK = 500
#: Tries at a new entry's number and definition while other writers take
#: them first (PostgreSQL; SQLite's writers queue on the write lock).
ATTEMPTS = 5


def chunked(items: Sequence[Any], size: int = IN_CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def game_values(game: Definition) -> dict[str, Any]:
    """The ``games`` row of the game's rules (shared by every alteration)."""
    rules = game.rules_json()
    return {
        "key": game.rules_key,
        "rays": rules["rays"],
        "moves": rules["moves"],
        "special": rules["special"],
    }


def alteration_values(game: Definition) -> dict[str, Any]:
    """The ``alterations`` row of an altered game's forced cells."""
    cells = game.forced_p + game.forced_n
    return {
        "key": game.alteration_key,
        "forced_p": [list(c) for c in game.forced_p],
        "forced_n": [list(c) for c in game.forced_n],
        "cells": len(cells),
        "width": 1 + max(x for x, _ in cells),
        "height": 1 + max(y for _, y in cells),
    }


def default_name(game: Definition) -> str:
    """A name from the rules, for a game added without one
    (``Game with rays (1,0) (0,1); moves (1,2) (2,1)``; ``⋆ of the game
    with Beatty moves of α = sqrt(2)``)."""
    if game.kinds == {"star"} and game.star is not None:
        inner = _name_parts(game.star) or ["no moves"]
        return "⋆ of the game with " + "; ".join(inner)
    return "Game with " + "; ".join(_name_parts(game))


def _name_parts(game: Definition) -> list[str]:
    parts = []
    if game.rays or not game.beyond("rays", "moves"):
        parts.append("rays " + " ".join(f"({a},{b})" for a, b in game.rays))
    if game.moves:
        parts.append("moves " + " ".join(f"({a},{b})" for a, b in game.moves))
    if game.special:
        parts.append(", ".join(game.special))
    if game.cones:
        parts.append(f"{len(game.cones)} cone" + ("s" if len(game.cones) > 1 else ""))
    if game.beatty is not None:
        parts.append(f"Beatty moves of α = {game.beatty}")
    if game.star is not None:
        inner = "; ".join(_name_parts(game.star) or ["no moves"])
        parts.append(f"the moves of ⋆ of the game with {inner}")
    if game.block:
        parts.append(f"block {game.block}")
    if game.altered:
        parts.append(f"{len(game.forced_p)} forced P, {len(game.forced_n)} forced N")
    return parts


def ids_by_key(
    session: Reader, table: Table, values: dict[str, dict[str, Any]], now: Any
) -> dict[str, int]:
    """The id of the row of each key in ``values``, inserting those missing."""
    keys = list(values)

    def look(wanted: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for chunk in chunked(wanted):
            query = select(table.c.key, table.c.id).where(table.c.key.in_(chunk))
            found.update({key: id_ for key, id_ in session.execute(query)})
        return found

    ids = look(keys)
    missing = [key for key in keys if key not in ids]
    if missing:
        session.execute(
            insert(table), [{**values[key], "created_at": now} for key in missing]
        )
        ids.update(look(missing))
    return ids


def add_game(
    connection: Reader, game: Definition, *, name: str | None = None
) -> tuple[int, bool]:
    """The number of the entry for ``game``, created under the next free
    number (source ``user``) if no entry has the same definition: what
    :func:`catalog.store.entries.add_entry` does, without the ORM.

    Returns ``(number, created)``. Two writers racing for the same
    definition or number retry inside a savepoint.
    """
    by_key = select(tables.entries.c.id).where(tables.entries.c.key == game.key)
    for _attempt in range(ATTEMPTS):
        existing = connection.scalar(by_key)
        if existing is not None:
            return existing, False
        try:
            with connection.begin_nested():
                number = next_free(connection)
                now = tables.utcnow()
                games = ids_by_key(
                    connection, tables.games, {game.rules_key: game_values(game)}, now
                )
                alteration = None
                if game.altered:
                    key = game.alteration_key
                    alteration = ids_by_key(
                        connection,
                        tables.alterations,
                        {key: alteration_values(game)},
                        now,
                    )[key]
                connection.execute(
                    insert(tables.entries),
                    {
                        "id": number,
                        "key": game.key,
                        "name": name or default_name(game),
                        "description": "",
                        "references": [],
                        "keywords": [],
                        "provenance": "",
                        "source": "user",
                        "definition": game.to_json(),
                        "game_id": games[game.rules_key],
                        "alteration_id": alteration,
                        "created_at": now,
                        "updated_at": now,
                    },
                )
        except IntegrityError:
            # Another writer took this definition or this number first: look
            # again.
            continue
        return number, True
    raise RuntimeError(f"could not allocate an entry ID after {ATTEMPTS} attempts")
