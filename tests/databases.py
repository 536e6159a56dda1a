"""The tests' databases: empty ones, and copies of templates built once per
session (per xdist worker).

A template is a function that fills a database given its URL (migrate it,
seed it, compute some entries); :meth:`Databases.new` builds it once per
backend, then hands out copies: a copied file on SQLite, ``CREATE DATABASE
… TEMPLATE`` on PostgreSQL. A test's copy is its own, so tests that write
stay independent, and the template is never opened by a test.

PostgreSQL databases are dropped by a background thread (a ``DROP
DATABASE`` waits for the server's checkpoint and took up to 2 s a test); the
session waits for it at the end and reports a drop that failed.
"""

from __future__ import annotations

import queue
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from catalog import service
from catalog.config import Settings
from catalog.store.db import make_engine, upgrade_to_head

Template = Callable[[str], None]


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
        self.drops: queue.Queue[tuple[Engine, str] | None] = queue.Queue()
        self.failed: list[str] = []
        self.admins: set[Engine] = set()
        self.template_admin: Engine | None = None
        self.dropper = threading.Thread(target=self._drop_all, daemon=True)
        self.dropper.start()

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
        name = self._create(admin, source)
        return self._url(name), lambda: self.drops.put((admin, name))

    def close(self) -> None:
        """Drop every PostgreSQL database made, the templates last."""
        self.drops.put(None)
        self.dropper.join()
        for (backend, _), source in self.templates.items():
            if backend == "postgresql" and self.template_admin is not None:
                self._drop(self.template_admin, source)
        for admin in self.admins:  # the session's admin engine may be disposed
            admin.dispose()  # already: the connections made since go too
        assert not self.failed, f"databases not dropped: {self.failed}"

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
                name = self._create(admin, None)
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

    def _drop(self, admin: Engine, name: str) -> None:
        try:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        except Exception as exc:  # noqa: BLE001  (reported by close)
            self.failed.append(f"{name}: {exc}")

    def flush(self) -> None:
        """Wait until every drop asked for so far is done (before the admin
        engine it runs on is disposed)."""
        self.drops.join()

    def _drop_all(self) -> None:
        while (item := self.drops.get()) is not None:
            self._drop(*item)
            self.drops.task_done()
