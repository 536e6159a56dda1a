"""The tests' databases: empty ones, and copies of templates built once per
session (per xdist worker).

A template is a function that fills a database given its URL (migrate it,
seed it, compute some entries); :meth:`Databases.new` builds it once per
backend, then hands out copies: a copied file on SQLite, ``CREATE DATABASE
… TEMPLATE`` on PostgreSQL. A test's copy is its own, so tests that write
stay independent, and the template is never opened by a test.

On PostgreSQL both ends of a database are slow on a busy server, so they
run in background threads. A copy is made ahead: handing one out starts
making the next copy of the same template (one spare per template, empty
databases included). A ``DROP DATABASE`` waits for a checkpoint of the whole
server (1 to 3 s each here, one after the other), but drops running at once
share it: the drops wait until :data:`DROP_BATCH` are due and then run
together. The session waits for both at the end, drops the spares and the
templates too, and reports a drop that failed.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from catalog import service
from catalog.config import Settings
from catalog.store.db import make_engine, upgrade_to_head

Template = Callable[[str], None]

#: PostgreSQL databases dropped at once (at most this many wait undropped).
DROP_BATCH = 8


def migrated(url: str) -> None:
    """The schema at head, no entry."""
    engine = make_engine(url)
    try:
        upgrade_to_head(engine)
    finally:
        engine.dispose()


def seeded(url: str) -> None:
    """The seeded entries with their labels, nothing computed: what
    ``wythoff seed --n 0`` and ``service.seed`` leave."""
    store = service.Store(Settings.load(url))
    try:
        service.seed(store)
    finally:
        store.dispose()


@contextmanager
def rolled_back(engine: Engine) -> Iterator[sessionmaker[Session]]:
    """Sessions inside one outer transaction that is rolled back afterwards:
    their commits only release savepoints."""
    with engine.connect() as connection:
        outer = connection.begin()
        yield sessionmaker(
            bind=connection,
            join_transaction_mode="create_savepoint",
            expire_on_commit=False,
        )
        outer.rollback()


class Databases:
    """Makes databases: SQLite files (the templates in ``folder``) and
    PostgreSQL databases on the server of the admin engine given to
    :meth:`new`, which :meth:`close` drops."""

    def __init__(self, folder: Path, admin_url: str) -> None:
        self.folder = folder
        self.admin_url = admin_url
        self.templates: dict[tuple[str, Template], str] = {}
        self.failed: list[str] = []
        self.admins: set[Engine] = set()
        self.template_admin: Engine | None = None
        # The next copy of each PostgreSQL template (None: an empty database).
        self.maker = ThreadPoolExecutor(1, thread_name_prefix="create-database")
        self.spares: dict[str | None, tuple[Engine, Future[str]]] = {}
        self.droppers = ThreadPoolExecutor(DROP_BATCH, thread_name_prefix="drop")
        self.due: list[tuple[Engine, str]] = []  # not asked to drop yet
        self.dropping: list[Future[None]] = []

    def new(
        self,
        backend: str,
        folder: Path,
        admin: Engine | None,
        template: Template | None = None,
    ) -> tuple[str, Callable[[], None]]:
        """A new database (a copy of ``template``, or empty): its URL and
        the function that drops it."""
        source = None if template is None else self._template(backend, admin, template)
        if backend == "sqlite":
            path = folder / "catalog.sqlite3"
            if source is not None:
                shutil.copyfile(source, path)
            return f"sqlite:///{path}", lambda: None
        assert admin is not None
        self.admins.add(admin)
        name = self._take_spare(admin, source)
        self.spares[source] = (admin, self.maker.submit(self._create, admin, source))
        return self._url(name), lambda: self._drop_later(admin, name)

    def drop_all(self) -> None:
        """Drop every PostgreSQL database made, the spares and the templates
        too, at once, and wait: at the end, before the admin engine they run
        on is disposed."""
        self.maker.shutdown(wait=True)
        for admin, spare in self.spares.values():
            if spare.exception() is None:
                self.due.append((admin, spare.result()))
        self.spares.clear()
        for key, source in list(self.templates.items()):
            if key[0] == "postgresql" and self.template_admin is not None:
                self.due.append((self.template_admin, source))
                del self.templates[key]
        self._drop_due()
        for dropping in self.dropping:
            dropping.result()
        self.dropping.clear()

    def close(self) -> None:
        """Drop what is left (:meth:`drop_all`), report a drop that failed."""
        self.drop_all()
        self.droppers.shutdown(wait=True)
        for admin in self.admins:  # the session's admin engine may be disposed
            admin.dispose()  # already: the connections made since go too
        assert not self.failed, f"databases not dropped: {self.failed}"

    def _take_spare(self, admin: Engine, source: str | None) -> str:
        """The spare copy of ``source`` made ahead, or a new one (no spare
        yet, or making it failed: that error shows again if it lasts)."""
        spare = self.spares.pop(source, None)
        if spare is not None:
            try:
                return spare[1].result()
            except Exception:  # noqa: BLE001  (made again below, in the open)
                pass
        return self._create(admin, source)

    def _template(self, backend: str, admin: Engine | None, build: Template) -> str:
        key = (backend, build)
        if key not in self.templates:
            if backend == "sqlite":
                path = self.folder / f"{build.__name__}-{uuid.uuid4().hex[:8]}.sqlite3"
                build(f"sqlite:///{path}")
                self.templates[key] = str(path)
            else:
                assert admin is not None
                self.admins.add(admin)
                self.template_admin = admin
                name = self._take_spare(admin, None)
                build(self._url(name))  # disposes its engines: copies need that
                self.templates[key] = name
        return self.templates[key]

    def _url(self, name: str) -> str:
        url = make_url(self.admin_url).set(database=name)
        return url.render_as_string(hide_password=False)

    @staticmethod
    def _create(admin: Engine, template: str | None) -> str:
        name = f"wythoff_test_{uuid.uuid4().hex[:12]}"
        like = f' TEMPLATE "{template}"' if template else ""
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"{like}'))
        return name

    def _drop_later(self, admin: Engine, name: str) -> None:
        self.due.append((admin, name))
        if len(self.due) >= DROP_BATCH:
            self._drop_due()

    def _drop_due(self) -> None:
        """Start dropping every database due, all at once."""
        self.dropping = [f for f in self.dropping if not f.done()]
        self.dropping += [self.droppers.submit(self._drop, *due) for due in self.due]
        self.due.clear()

    def _drop(self, admin: Engine, name: str) -> None:
        try:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        except Exception as exc:  # noqa: BLE001  (reported by close)
            self.failed.append(f"{name}: {exc}")
