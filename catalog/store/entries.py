"""Entries: create, update, find and list the catalog's entries.

Every function takes the session first and never creates, commits or closes
it: the CLI's ``with Session.begin():`` or the web teardown does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from catalog.games.definition import Definition
from catalog.store import prints
from catalog.store.derived import forget_column
from catalog.store.ids import UnknownEntry, format_id, next_free
from catalog.store.models import (
    Alteration,
    Bitstring,
    Entry,
    EntryKeyword,
    Extent,
    Facts,
    Game,
    Invariants,
    Label,
    PositionChunk,
    utcnow,
)
from catalog.store.models import Sequence as SequenceRow


def get_entry(session: Session, number: int) -> Entry:
    entry = session.get(Entry, number)
    if entry is None:
        raise UnknownEntry(f"no entry {format_id(number)}")
    return entry


def find_entry(session: Session, game: Definition) -> Entry | None:
    return session.scalar(select(Entry).where(Entry.key == game.key))


def _game_row(session: Session, game: Definition) -> Game:
    row = session.scalar(select(Game).where(Game.key == game.rules_key))
    if row is None:
        rules = game.rules_json()
        row = Game(
            key=game.rules_key,
            rays=rules["rays"],
            moves=rules["moves"],
            special=rules["special"],
            created_at=utcnow(),
        )
        session.add(row)
    return row


def _alteration_row(session: Session, game: Definition) -> Alteration | None:
    if not game.altered:
        return None
    row = session.scalar(
        select(Alteration).where(Alteration.key == game.alteration_key)
    )
    if row is None:
        cells = game.forced_p + game.forced_n
        row = Alteration(
            key=game.alteration_key,
            forced_p=[list(c) for c in game.forced_p],
            forced_n=[list(c) for c in game.forced_n],
            cells=len(cells),
            width=1 + max(x for x, _ in cells),
            height=1 + max(y for _, y in cells),
            created_at=utcnow(),
        )
        session.add(row)
    return row


def add_entry(
    session: Session,
    game: Definition,
    *,
    name: str | None = None,
    number: int | None = None,
    source: str = "user",
    description: str = "",
    references: Sequence[Any] = (),
    keywords: Iterable[str] = (),
    provenance: str = "",
) -> tuple[Entry, bool]:
    """The entry for ``game``, created if no entry has the same definition.

    Returns ``(entry, created)``. Without ``number`` the next free ID is taken;
    two sessions racing for the same definition or ID retry inside a savepoint.
    """
    for _attempt in range(5):
        existing = find_entry(session, game)
        if existing is not None:
            return existing, False
        try:
            with session.begin_nested():
                now = utcnow()
                entry = Entry(
                    id=number if number is not None else next_free(session),
                    key=game.key,
                    name=name or default_name(game),
                    description=description,
                    references=list(references),
                    keywords=sorted(set(keywords)),
                    provenance=provenance,
                    source=source,
                    definition=game.to_json(),
                    game=_game_row(session, game),
                    alteration=_alteration_row(session, game),
                    created_at=now,
                    updated_at=now,
                )
                session.add(entry)
                session.flush()
                _set_keywords(session, entry)
        except IntegrityError:
            # Another writer took this definition or this ID first: look again.
            if number is not None and session.get(Entry, number) is not None:
                raise
            continue
        return entry, True
    raise RuntimeError("could not allocate an entry ID after 5 attempts")


def update_entry(
    session: Session, entry: Entry, game: Definition, **fields: Any
) -> bool:
    """Bring ``entry`` in line with ``game`` and ``fields``; True if it changed.

    A changed definition drops every stored result: they belong to the old game.
    """
    changed = False
    if entry.key != game.key:
        clear_results(session, entry)
        # Labels name the old game; seeding the families attaches the new ones.
        session.execute(delete(Label).where(Label.entry_id == entry.id))
        entry.key = game.key
        entry.definition = game.to_json()
        entry.game = _game_row(session, game)
        entry.alteration = _alteration_row(session, game)
        changed = True
    if "keywords" in fields:
        fields["keywords"] = sorted(set(fields["keywords"]))
    for name, value in fields.items():
        if getattr(entry, name) != value:
            setattr(entry, name, value)
            changed = True
    if changed:
        entry.updated_at = utcnow()
        session.flush()
        _set_keywords(session, entry)
    return changed


def _set_keywords(session: Session, entry: Entry) -> None:
    session.execute(delete(EntryKeyword).where(EntryKeyword.entry_id == entry.id))
    session.add_all(EntryKeyword(entry_id=entry.id, keyword=k) for k in entry.keywords)


def clear_results(session: Session, entry: Entry) -> None:
    """Forget everything computed for ``entry``."""
    forget_column(session, entry.id)
    for model in (
        PositionChunk,
        SequenceRow,
        Bitstring,
        Facts,
        Invariants,
        Extent,
    ):
        session.execute(delete(model).where(model.entry_id == entry.id))
    prints.clear(session, [entry.id])
    session.expire(entry, ["extent"])


def default_name(game: Definition) -> str:
    parts = ["rays " + " ".join(f"({a},{b})" for a, b in game.rays)]
    if game.moves:
        parts.append("moves " + " ".join(f"({a},{b})" for a, b in game.moves))
    if game.special:
        parts.append(", ".join(game.special))
    if game.altered:
        parts.append(f"{len(game.forced_p)} forced P, {len(game.forced_n)} forced N")
    return "Game with " + "; ".join(parts)
