"""The database of one catalog, and the one place where an entry argument
(an ID such as ``W000004``) is resolved to an entry number."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, Engine, bindparam, select
from sqlalchemy.exc import IntegrityError

from catalog.compute.modes import box_limited, max_n
from catalog.config import Settings
from catalog.errors import Busy, Unprocessable
from catalog.games.definition import Definition, canonicalize
from catalog.inputs import MAX_LABEL_LENGTH, check_text, shown
from catalog.store import labels as labelled
from catalog.store.db import Reader, make_engine, make_sessionmaker, upgrade_to_head
from catalog.store.ids import BadId, UnknownEntry, format_id, parse_id
from catalog.store.limits import Limits
from catalog.store.tables import entries, extents

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from catalog.families import FamilySet
    from catalog.store.positions import ChunkCache

#: Forced cells of the definitions one process keeps decoded (about 200
#: bytes each, as JSON lists and as tuples): a few hundred MB at most.
GAME_CACHE_CELLS = 1_000_000


class Games:
    """Stored definitions, decoded and canonical, by the entry's ``key``.

    The key is the SHA-256 of the canonical definition, so a key never
    names another game: a cached definition is right for as long as the
    entry's key is the one it was read with, and an edited entry gets a new
    key. Reading a definition back is JSON decoding and validation of up
    to 250,000 forced cells; looking up its key is one indexed read of 64
    characters. Bounded by forced cells, least recently used first out.
    """

    def __init__(self, max_cells: int = GAME_CACHE_CELLS) -> None:
        self.max_cells = max_cells
        self._items: OrderedDict[str, tuple[dict[str, Any], Definition]] = OrderedDict()
        self._cells = 0
        self._lock = threading.Lock()

    @staticmethod
    def _weight(game: Definition) -> int:
        return 1 + len(game.forced_p) + len(game.forced_n)

    def get(self, key: str) -> tuple[dict[str, Any], Definition] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, definition: dict[str, Any], game: Definition) -> None:
        weight = self._weight(game)
        if weight > self.max_cells // 4:
            return  # one huge definition would push out everything else
        with self._lock:
            if key in self._items:
                return
            self._items[key] = (definition, game)
            self._cells += weight
            while self._cells > self.max_cells:
                _, (_, dropped) = self._items.popitem(last=False)
                self._cells -= self._weight(dropped)


class Store:
    """The database of one catalog, connected and migrated on first use.

    Reads take a plain connection (:meth:`reading`) and Core statements;
    only writes build :attr:`sessions`, and so import the ORM.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        migrate: bool = True,
        limits: Limits | None = None,
        pre_ping: bool = True,
    ) -> None:
        self.settings = settings
        self.migrate = migrate
        #: Test a pooled PostgreSQL connection (a round trip) before each
        #: use. The API does without: a read that finds its connection
        #: lost is run again on a fresh one (``catalog.api._retrying``).
        self.pre_ping = pre_ping
        #: How much a fill may do for this store's callers: the API sets a
        #: budget, a claim wait and a deadline; the CLI none (it waits).
        self.limits = limits or Limits()

    @cached_property
    def engine(self) -> Engine:
        engine = make_engine(self.settings.database_url, pool_pre_ping=self.pre_ping)
        if self.migrate:
            upgrade_to_head(engine)
        return engine

    @cached_property
    def sessions(self) -> sessionmaker[Session]:
        return make_sessionmaker(self.engine)

    @cached_property
    def families(self) -> FamilySet:
        """The shipped families, loaded once per store (per process)."""
        from catalog.families import load_families  # not needed to read by ID

        return load_families()

    @cached_property
    def games(self) -> Games:
        """Decoded definitions shared by the requests of one process."""
        return Games()

    @cached_property
    def cache(self) -> ChunkCache:
        """Decoded chunks shared by the requests of one process."""
        # Imported here: the chunks' module loads numpy, which writing an
        # entry (``wythoff add``) does not need.
        from catalog.store.positions import ChunkCache

        return ChunkCache()

    @cached_property
    def _reads(self) -> Engine:
        # PostgreSQL's READ COMMITTED gives each statement its own snapshot,
        # in a transaction or not: reading without one saves the BEGIN and
        # ROLLBACK round trips. SQLite's transaction holds one snapshot for
        # all the statements of a read (and costs no round trip).
        if self.engine.dialect.name == "postgresql":
            return self.engine.execution_options(isolation_level="AUTOCOMMIT")
        return self.engine

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """One pooled connection for a read of plain statements, nothing
        written. The API's read paths take one per request (a Session costs
        more than the statements it runs)."""
        with self._reads.connect() as connection:
            yield connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """One write transaction of plain statements, committed at the end
        of the block (no ORM: ``wythoff add``). On SQLite it takes the write
        lock at BEGIN, as :func:`catalog.store.db.writing` does."""
        with self.engine.connect() as connection:
            connection = connection.execution_options(sqlite_begin="IMMEDIATE")
            with connection.begin():
                yield connection

    def dispose(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()


class Batch(Store):
    """A view of a store whose writes all go into one transaction of one
    connection: every session's commit only releases a savepoint, and reads
    see the batch's writes. :func:`batch` commits it whole, or nothing of
    it. The search index of the batch's entries is written at its end, as
    one segment (:func:`catalog.store.search.index_later`)."""

    def __init__(self, store: Store, connection: Connection) -> None:
        super().__init__(store.settings, migrate=False, limits=store.limits)
        self.connection = connection
        # The parent's engine and families; a cache of its own (the batch's
        # chunks are not the catalog's until it commits).
        self.__dict__["engine"] = store.engine
        self.__dict__["families"] = store.families
        self.__dict__["games"] = store.games

    @cached_property
    def sessions(self) -> sessionmaker[Session]:
        from sqlalchemy.orm import sessionmaker

        return sessionmaker(
            bind=self.connection,
            join_transaction_mode="create_savepoint",
            expire_on_commit=False,
        )

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        yield self.connection

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        # As a session's commit here: a savepoint of the batch's transaction.
        with self.connection.begin_nested():
            yield self.connection

    def dispose(self) -> None:
        pass  # the parent's engine


@contextmanager
def batch(store: Store) -> Iterator[Batch]:
    """Many entries' writes in one transaction (seeding): far fewer pages
    written per entry, and a reader sees each entry before the batch or
    after it, never between. An error rolls the whole batch back."""
    from catalog.store import search

    with store.engine.connect() as connection:
        connection = connection.execution_options(sqlite_begin="IMMEDIATE")
        with connection.begin():
            with search.index_later(connection):
                yield Batch(store, connection)


T = TypeVar("T")

#: Attempts of an idempotent transaction that lost a race for a row.
IDEMPOTENT_ATTEMPTS = 3


def idempotent(work: Callable[[], T]) -> T:
    """Run ``work``, one transaction that writes only what the catalog lacks
    (seeding), again when another writer committed the same rows under it:
    the next attempt finds them and leaves them be."""
    for _ in range(IDEMPOTENT_ATTEMPTS - 1):
        try:
            return work()
        except IntegrityError:
            continue
    try:
        return work()
    except IntegrityError:
        raise Busy(
            "another process keeps writing the same entries; try again"
        ) from None


def compute_limit(game: Definition, settings: Settings) -> int:
    """The largest n the catalog computes for ``game``: the store's limit,
    or :data:`~catalog.compute.modes.MAX_BOX_N` for games with neither a
    vertical nor a horizontal ray."""
    return min(max_n(game), settings.max_compute_n)


def check_own_limit(
    value: int, name: str, most: int, number: int, game: Definition
) -> int:
    """``value`` if at most ``most``, this entry's own limit for it (from
    :func:`compute_limit`); else :class:`~catalog.errors.Unprocessable`: the
    value is one the catalog takes for other games (the API's document
    states the limits every game shares; past those it is a 400)."""
    if value <= most:
        return value
    if box_limited(game):
        why = f"its engine computes a box whole, at most {max_n(game)} wide"
    else:
        why = "its outcomes are read from its computed table, as far as it goes"
    raise Unprocessable(
        f"{name}: must be at most {most} for {format_id(number)}: {why}"
    )


def entry_number(store: Store, text: str) -> int:
    """The number of the entry that ``text`` names: an ID (``W000004``) or a
    family member's label (``maharaja.1.2``).

    Every command and route that takes an entry argument resolves it here,
    so whatever else may name an entry is accepted everywhere alike.
    """
    if not isinstance(text, str) or "." not in text:
        try:
            return parse_id(text)
        except BadId:
            what = shown(text) if isinstance(text, str) else type(text).__name__
            raise BadId(
                f"not an entry ID or label: {what} (expected an entry ID such as "
                "W000001, or a family member's label such as maharaja.1.2)"
            ) from None
    check_text(text, "ID", MAX_LABEL_LENGTH)
    with store.reading() as connection:
        number = labelled.entry_for_label(connection, text)
    if number is not None:
        return number
    # Not stored as written: a malformed label or an unknown family says so
    # here; a subset written in another order is looked up as written
    # canonically; else the member is not seeded.
    from catalog.families.params import LabelError

    try:
        member = store.families.parse_label(text)
    except LabelError as exc:  # well formed, but no member: not found
        raise UnknownEntry(str(exc)) from None
    if member.label != text:
        with store.reading() as connection:
            number = labelled.entry_for_label(connection, member.label)
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
    with store.reading() as connection:
        row = connection.execute(_VERSION, {"number": number}).first()
    if row is None:
        raise UnknownEntry(f"no entry {format_id(number)}")
    edited, extended = row
    return edited.isoformat(), extended.isoformat() if extended else None


def entry_game(store: Store, wid: str) -> tuple[int, Definition]:
    """The entry's number and its canonical definition."""
    number = entry_number(store, wid)
    with store.reading() as connection:
        return number, stored_game(store, connection, number)[1]


_KEY = select(entries.c.key).where(entries.c.id == bindparam("number"))
_DEFINITION = select(entries.c.key, entries.c.definition).where(
    entries.c.id == bindparam("number")
)
_VERSION = (
    select(entries.c.updated_at, extents.c.updated_at)
    .outerjoin(extents, extents.c.entry_id == entries.c.id)
    .where(entries.c.id == bindparam("number"))
)


def stored_game(
    store: Store, reader: Reader, number: int, key: str | None = None
) -> tuple[dict[str, Any], Definition]:
    """The entry's stored definition (as JSON) and its canonical form, read
    once per process and key (:class:`Games`); ``key``: the entry's, when
    the caller has read it already. Raises
    :class:`~catalog.store.ids.UnknownEntry` for no such entry."""
    if key is None:
        key = reader.scalar(_KEY, {"number": number})
    found = store.games.get(key) if key is not None else None
    if found is not None:
        return found
    row = reader.execute(_DEFINITION, {"number": number}).first()
    if row is None:
        raise UnknownEntry(f"no entry {format_id(number)}")
    game = canonicalize(row.definition)
    store.games.put(row.key, row.definition, game)
    return row.definition, game
