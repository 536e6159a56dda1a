"""The catalog's tables as typed SQLAlchemy 2 models, for the writes.

Each class is mapped onto its table in :mod:`catalog.store.tables`, where
the columns, their types and comments are defined once; the annotations
here type the attributes. The read paths use the tables alone and never
import this module (nor ``sqlalchemy.orm``). The schema itself is built
only by the Alembic history in ``migrations/``; ``tests/test_migrations.py``
checks that the two agree. The job queue's table is in
:mod:`catalog.store.job_model`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, relationship

from catalog.store import tables
from catalog.store.tables import NAMING_CONVENTION, utcnow

__all__ = [
    "NAMING_CONVENTION",
    "Alteration",
    "Base",
    "Bitstring",
    "Entry",
    "EntryKeyword",
    "Extent",
    "Facts",
    "Game",
    "Invariants",
    "Label",
    "PositionChunk",
    "SearchSegment",
    "Sequence",
    "utcnow",
]


class Base(DeclarativeBase):
    metadata = tables.metadata
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}

    @declared_attr.directive
    def __tablename__(cls) -> str:
        """The name of the class's table (``Extent.__tablename__``), as
        declarative classes have it."""
        return cls.__table__.name  # type: ignore[attr-defined]


class Game(Base):
    """A rule set: rays, single moves and special rules, without alterations."""

    __table__ = tables.games

    id: Mapped[int]
    key: Mapped[str]
    rays: Mapped[list[Any]]
    moves: Mapped[list[Any]]
    special: Mapped[list[Any]]
    created_at: Mapped[datetime]


class Alteration(Base):
    """A finite set of cells forced P and a disjoint one forced N."""

    __table__ = tables.alterations

    id: Mapped[int]
    key: Mapped[str]
    forced_p: Mapped[list[Any]]
    forced_n: Mapped[list[Any]]
    cells: Mapped[int]
    width: Mapped[int]
    height: Mapped[int]
    created_at: Mapped[datetime]


class Entry(Base):
    """A catalog entry: a permanent W-number for one game with one alteration."""

    __table__ = tables.entries

    id: Mapped[int]
    key: Mapped[str]
    name: Mapped[str]
    description: Mapped[str]
    references: Mapped[list[Any]]
    keywords: Mapped[list[Any]]
    provenance: Mapped[str]
    source: Mapped[str]
    definition: Mapped[dict[str, Any]]
    game_id: Mapped[int]
    alteration_id: Mapped[int | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    game: Mapped[Game] = relationship()
    alteration: Mapped[Alteration | None] = relationship()
    extent: Mapped[Extent | None] = relationship(
        back_populates="entry", cascade="all, delete-orphan"
    )


class EntryKeyword(Base):
    __table__ = tables.entry_keywords

    entry_id: Mapped[int]
    keyword: Mapped[str]


class Extent(Base):
    """How much of an entry's P-positions the store holds."""

    __table__ = tables.extents

    entry_id: Mapped[int]
    x_bound: Mapped[int]
    y_bound: Mapped[int | None]
    count: Mapped[int]
    engine: Mapped[str]
    updated_at: Mapped[datetime]

    entry: Mapped[Entry] = relationship(back_populates="extent")


class PositionChunk(Base):
    """The P-positions of the columns [x0, x1), compressed."""

    __table__ = tables.p_chunks

    entry_id: Mapped[int]
    x0: Mapped[int]
    x1: Mapped[int]
    y_bound: Mapped[int | None]
    count: Mapped[int]
    encoding: Mapped[str]
    data: Mapped[bytes]
    checksum: Mapped[str]
    created_at: Mapped[datetime]


class Sequence(Base):
    """An integer sequence derived from the P-positions (y(x), a_n, b_n, …)."""

    __table__ = tables.sequences

    entry_id: Mapped[int]
    name: Mapped[str]
    offset: Mapped[int]
    length: Mapped[int]
    encoding: Mapped[str]
    data: Mapped[bytes]
    checksum: Mapped[str]
    description: Mapped[str]


class SearchSegment(Base):
    """A segment of the search index (see :data:`tables.search_segments`)."""

    __table__ = tables.search_segments

    id: Mapped[int]
    entries: Mapped[int]
    level: Mapped[int]


class Bitstring(Base):
    """A bitstring read off the P-positions (Maharaja's upper/lower string, S_t)."""

    __table__ = tables.bitstrings

    entry_id: Mapped[int]
    kind: Mapped[str]
    start: Mapped[int]
    length: Mapped[int]
    bits: Mapped[str]


class Facts(Base):
    """The invariants researchers filter and sort by, one row per entry
    (see :data:`tables.facts`)."""

    __table__ = tables.facts

    entry_id: Mapped[int]
    offset_dx: Mapped[int | None]
    offset_dy: Mapped[int | None]
    offset_method: Mapped[str | None]
    defects: Mapped[int | None]
    saturation_column: Mapped[int | None]
    deviation_min: Mapped[int | None]
    deviation_max: Mapped[int | None]
    adjoined_same: Mapped[bool | None]
    one_p_per_column: Mapped[bool | None]
    symmetric: Mapped[bool | None]
    xref_class: Mapped[int | None]
    y_head: Mapped[int | None]
    y_length: Mapped[int | None]
    y_digest: Mapped[int | None]
    cone_slope: Mapped[int | None]
    cone_s: Mapped[int | None]
    cone_t: Mapped[int | None]


class Label(Base):
    """A family member's permanent label (``box.8.13``) and its parameters
    (see :data:`tables.labels`)."""

    __table__ = tables.labels

    label: Mapped[str]
    entry_id: Mapped[int]
    family: Mapped[str]
    rank: Mapped[int]
    parameters: Mapped[dict[str, Any]]
    p1: Mapped[int | None]
    p2: Mapped[int | None]
    p3: Mapped[int | None]


class Invariants(Base):
    """What the papers' theory says about an entry (see
    :data:`tables.invariants`)."""

    __table__ = tables.invariants

    entry_id: Mapped[int]
    version: Mapped[int]
    data: Mapped[dict[str, Any]]
    computed_at: Mapped[datetime]
