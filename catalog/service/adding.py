"""``wythoff add``: a new game, or the entry that already holds it.

Kept apart from :mod:`.entries` so that adding loads what writing one
entry needs and nothing more: no numpy, no compute layer and no ORM (the
rows are written with Core statements, :mod:`catalog.store.rows`), and the
families only once an entry is created (``tests/cli/test_startup.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.errors import NotFound
from catalog.games.definition import parse_json
from catalog.inputs import MAX_NAME_LENGTH, check_text
from catalog.kinds.star import Names
from catalog.service.store import Store, entry_number
from catalog.store import labels as labelled
from catalog.store.ids import format_id
from catalog.store.rows import add_game


def star_names(store: Store) -> Names:
    """What an entry ID or label in a ``star`` stands for: the stored
    entry's definition, or a family member's not seeded yet (read only when
    a ``star`` names one)."""

    def lookup(text: str) -> Mapping[str, Any]:
        try:
            number = entry_number(store, text)
        except NotFound:
            if not store.families.is_label(text):
                raise
            return store.families.parse_label(text).definition
        from catalog.store import repository as repo  # the ORM: on use

        with store.sessions() as session:
            return dict(repo.get_entry(session, number).definition)

    return lookup


def add(store: Store, definition: str, name: str | None = None) -> dict[str, Any]:
    """Add a game under the next free number; a game that is a family member
    gets its labels at once (and keeps this number when its family is
    seeded)."""
    game = parse_json(definition, star_names(store))
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
