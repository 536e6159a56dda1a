"""The database of one catalog, and the one place where an entry argument
(an ID such as ``W000004``) is resolved to an entry number."""

from __future__ import annotations

from functools import cached_property

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, sessionmaker

from catalog.compute.ptable import max_n
from catalog.config import Settings
from catalog.families import FamilySet, load_families
from catalog.games.definition import Definition, canonicalize
from catalog.inputs import check_text
from catalog.store import families as labelled
from catalog.store import repository as repo
from catalog.store.db import make_engine, make_sessionmaker, upgrade_to_head
from catalog.store.fill import Limits
from catalog.store.ids import UnknownEntry, parse_id
from catalog.store.models import Entry, Extent

#: The longest label (the store's column holds 200 characters).
MAX_LABEL_LENGTH = 200


class Store:
    """The database of one catalog, connected and migrated on first use."""

    def __init__(
        self,
        settings: Settings,
        *,
        migrate: bool = True,
        limits: Limits | None = None,
    ) -> None:
        self.settings = settings
        self.migrate = migrate
        #: How much a fill may do for this store's callers: the API sets a
        #: budget, a claim wait and a deadline; the CLI none (it waits).
        self.limits = limits or Limits()

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
    def families(self) -> FamilySet:
        """The shipped families, loaded once per store (per process)."""
        return load_families()

    @cached_property
    def cache(self) -> repo.ChunkCache:
        """Decoded chunks shared by the requests of one process."""
        return repo.ChunkCache()

    def dispose(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()


def compute_limit(game: Definition, settings: Settings) -> int:
    """The largest n the catalog computes for ``game``: the store's limit,
    or :data:`~catalog.compute.ptable.MAX_BOX_N` for games with neither a
    vertical nor a horizontal ray."""
    return min(max_n(game), settings.max_compute_n)


def entry_number(store: Store, text: str) -> int:
    """The number of the entry that ``text`` names: an ID (``W000004``) or a
    family member's label (``maharaja.1.2``).

    Every command and route that takes an entry argument resolves it here,
    so whatever else may name an entry is accepted everywhere alike.
    """
    if not isinstance(text, str) or "." not in text:
        return parse_id(text)
    check_text(text, "ID", MAX_LABEL_LENGTH)
    with store.sessions() as session:
        number = labelled.entry_for_label(session, text)
    if number is not None:
        return number
    # Not stored as written: a malformed label or an unknown family says so
    # here; a subset written in another order is looked up as written
    # canonically; else the member is not seeded.
    member = store.families.parse_label(text)
    if member.label != text:
        with store.sessions() as session:
            number = labelled.entry_for_label(session, member.label)
        if number is not None:
            return number
    raise UnknownEntry(
        f"{member.label} is not in this catalog yet "
        f"(add it with: wythoff seed --family {member.family})"
    )


def entry_version(store: Store, number: int) -> tuple[str, str | None]:
    """What changes whenever the entry's stored results may have: when its
    definition was last edited and its extent last written (one indexed
    read). Raises :class:`~catalog.errors.NotFound` for no such entry."""
    with store.sessions() as session:
        row = session.execute(
            select(Entry.updated_at, Extent.updated_at)
            .outerjoin(Extent, Extent.entry_id == Entry.id)
            .where(Entry.id == number)
        ).first()
        if row is None:
            repo.get_entry(session, number)  # raises NotFound
            raise AssertionError("unreachable")
        edited, extended = row
        return edited.isoformat(), extended.isoformat() if extended else None


def entry_game(store: Store, wid: str) -> tuple[int, Definition]:
    """The entry's number and its canonical definition."""
    number = entry_number(store, wid)
    with store.sessions() as session:
        entry = repo.get_entry(session, number)
        return number, canonicalize(entry.definition)
