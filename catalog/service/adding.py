"""``wythoff add``: a new game, or the entry that already holds it.

Kept apart from :mod:`.entries` so that adding loads what writing one
entry needs and nothing more: no numpy, no compute layer and no ORM (the
rows are written with Core statements, :mod:`catalog.store.rows`), and the
families only once an entry is created (``tests/cli/test_startup.py``).
"""

from __future__ import annotations

from typing import Any

from catalog.games.definition import parse_json
from catalog.inputs import MAX_NAME_LENGTH, check_text
from catalog.service.store import Store
from catalog.store import labels as labelled
from catalog.store.ids import format_id
from catalog.store.rows import add_game


def add(store: Store, definition: str, name: str | None = None) -> dict[str, Any]:
    """Add a game under the next free number; a game that is a family member
    gets its labels at once (and keeps this number when its family is
    seeded)."""
    game = parse_json(definition)
    if name is not None:
        name = check_text(name, "name", MAX_NAME_LENGTH).strip()
    # The write lock first (SQLite): two processes adding the same definition
    # queue, and the second finds the first's entry.
    with store.writing() as connection:
        number, created = add_game(connection, game, name=name)
        if created:
            labelled.attach_labels(
                connection, number, store.families.label_rows(game.key)
            )
        return {"id": format_id(number), "created": created}
