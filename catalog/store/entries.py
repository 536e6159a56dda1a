"""Entries: create, update, find and list the catalog's entries.

Every function takes the session first and never creates, commits or closes
it: the CLI's ``with Session.begin():`` or the web teardown does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from catalog.games.definition import Definition
from catalog.store import prints, tables
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
from catalog.store.rows import (
    ATTEMPTS,
    alteration_values,
    chunked,
    default_name,
    game_values,
    ids_by_key,
)


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
        row = Game(**game_values(game), created_at=utcnow())
        session.add(row)
    return row


def _alteration_row(session: Session, game: Definition) -> Alteration | None:
    if not game.altered:
        return None
    row = session.scalar(
        select(Alteration).where(Alteration.key == game.alteration_key)
    )
    if row is None:
        row = Alteration(**alteration_values(game), created_at=utcnow())
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
    for _attempt in range(ATTEMPTS):
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
    raise RuntimeError(f"could not allocate an entry ID after {ATTEMPTS} attempts")


def entries_by_key(session: Session, keys: Sequence[str]) -> dict[str, Entry]:
    """The entries that exist for these definitions' keys, by key."""
    out: dict[str, Entry] = {}
    for chunk in chunked(keys):
        for entry in session.scalars(select(Entry).where(Entry.key.in_(chunk))):
            out[entry.key] = entry
    return out


def taken_numbers(session: Session, numbers: Sequence[int]) -> set[int]:
    """Which of these W-numbers an entry holds."""
    out: set[int] = set()
    for chunk in chunked(numbers):
        out.update(session.scalars(select(Entry.id).where(Entry.id.in_(chunk))))
    return out


@dataclass(frozen=True)
class NewEntry:
    """An entry for :func:`add_entries`: the fields of :func:`add_entry`."""

    game: Definition
    number: int
    name: str
    source: str
    description: str = ""
    references: Sequence[Any] = ()
    keywords: Iterable[str] = ()
    provenance: str = ""


def add_entries(session: Session, new: Sequence[NewEntry]) -> None:
    """Create these entries, as :func:`add_entry` would one at a time, in a
    few statements a table (a family's hundreds of members: one at a time
    costs about a dozen statements an entry).

    No entry may hold their definitions or numbers yet (the caller looked:
    :func:`entries_by_key`, :func:`taken_numbers`); a writer that takes one
    meanwhile makes the insert fail, and the caller's transaction with it.
    """
    if not new:
        return
    session.flush()  # the statements below are Core's: no autoflush
    now = utcnow()
    games = ids_by_key(
        session,
        tables.games,
        {e.game.rules_key: game_values(e.game) for e in new},
        now,
    )
    alterations = ids_by_key(
        session,
        tables.alterations,
        {
            e.game.alteration_key: alteration_values(e.game)
            for e in new
            if e.game.altered
        },
        now,
    )
    rows: list[dict[str, Any]] = [
        {
            "id": e.number,
            "key": e.game.key,
            "name": e.name,
            "description": e.description,
            "references": list(e.references),
            "keywords": sorted(set(e.keywords)),
            "provenance": e.provenance,
            "source": e.source,
            "definition": e.game.to_json(),
            "game_id": games[e.game.rules_key],
            "alteration_id": (
                alterations[e.game.alteration_key] if e.game.altered else None
            ),
            "created_at": now,
            "updated_at": now,
        }
        for e in new
    ]
    session.execute(insert(tables.entries), rows)
    words = [{"entry_id": e.number, "keyword": w} for e in new for w in set(e.keywords)]
    if words:
        session.execute(insert(tables.entry_keywords), words)


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
