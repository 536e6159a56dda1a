"""The job queue's table: claims on entries being computed, and queued fills.

Apart from :mod:`catalog.store.models`: its partial unique indexes name
both dialects (``sqlite_where``, ``postgresql_where``), and SQLAlchemy
imports a dialect to check such arguments. On an SQLite catalog that would
load PostgreSQL's dialect (a tenth of a second) into every command, where
only those that compute or queue need this table.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from catalog.store.models import Base


class Job(Base):
    """A unit of compute work: fill an entry's P-positions up to ``target``.

    At most one job per entry is ``running``: that row is the claim that
    makes concurrent requests compute a missing chunk once. Jobs of kind
    ``fill`` are the queue (:mod:`catalog.store.jobs`): at most one per entry
    and bound is ``queued``, and workers turn it into the running claim.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_state_entry", "state", "entry_id"),
        Index(
            "uq_jobs_running_entry",
            "entry_id",
            unique=True,
            sqlite_where=text("state = 'running'"),
            postgresql_where=text("state = 'running'"),
        ),
        Index(
            "uq_jobs_queued_entry",
            "entry_id",
            "target",
            unique=True,
            sqlite_where=text("state = 'queued'"),
            postgresql_where=text("state = 'queued'"),
        ),
        Index("ix_jobs_state_priority", "state", "priority", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), index=True
    )
    #: 'fill' for the queue, 'p-positions' for a fill's own claim
    kind: Mapped[str] = mapped_column(String(32))
    target: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[str] = mapped_column(
        String(16), comment="queued, running, done or failed"
    )
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), comment="last sign of life of the claiming worker"
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    error: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(
        Integer, server_default=text("0"), comment="claims taken so far"
    )
    priority: Mapped[int] = mapped_column(
        Integer, server_default=text("0"), comment="higher runs first"
    )
    run_after: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), comment="a queued job waits until then (backoff)"
    )
    entry_key: Mapped[str | None] = mapped_column(
        String(64), comment="the entry's definition key when queued"
    )
    started_from: Mapped[int | None] = mapped_column(
        BigInteger, comment="columns stored when the claim was taken"
    )
