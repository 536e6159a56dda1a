"""The catalog's tables as typed SQLAlchemy 2 models.

The schema itself is built only by the Alembic history in ``migrations/``;
``tests/test_migrations.py`` checks that the two agree. The job queue's
table is in :mod:`catalog.store.job_model`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from catalog.inputs import MAX_KEYWORD_LENGTH, MAX_NAME_LENGTH

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Game(Base):
    """A rule set: rays, single moves and special rules, without alterations."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(
        String(64), unique=True, comment="SHA-256 of the canonical rules JSON"
    )
    rays: Mapped[list[Any]]
    moves: Mapped[list[Any]]
    special: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Alteration(Base):
    """A finite set of cells forced P and a disjoint one forced N."""

    __tablename__ = "alterations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(
        String(64), unique=True, comment="SHA-256 of the canonical alteration JSON"
    )
    forced_p: Mapped[list[Any]]
    forced_n: Mapped[list[Any]]
    cells: Mapped[int] = mapped_column(comment="number of forced cells, P and N")
    width: Mapped[int] = mapped_column(comment="1 + largest x of a forced cell")
    height: Mapped[int] = mapped_column(comment="1 + largest y of a forced cell")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Entry(Base):
    """A catalog entry: a permanent W-number for one game with one alteration."""

    __tablename__ = "entries"

    id: Mapped[int] = mapped_column(
        Integer, primary_key=True, autoincrement=False, comment="the number of W…"
    )
    key: Mapped[str] = mapped_column(
        String(64), unique=True, comment="SHA-256 of the canonical definition"
    )
    name: Mapped[str] = mapped_column(String(MAX_NAME_LENGTH))
    description: Mapped[str] = mapped_column(Text, default="")
    references: Mapped[list[Any]]
    keywords: Mapped[list[Any]]
    provenance: Mapped[str] = mapped_column(Text, default="")
    source: Mapped[str] = mapped_column(
        String(16), comment="'seed' for seeds/ files, 'user' for wythoff add"
    )
    definition: Mapped[dict[str, Any]] = mapped_column(
        comment="canonical definition (boxes expanded)"
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    alteration_id: Mapped[int | None] = mapped_column(
        ForeignKey("alterations.id"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    game: Mapped[Game] = relationship()
    alteration: Mapped[Alteration | None] = relationship()
    extent: Mapped[Extent | None] = relationship(
        back_populates="entry", cascade="all, delete-orphan"
    )


class EntryKeyword(Base):
    __tablename__ = "entry_keywords"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    keyword: Mapped[str] = mapped_column(
        String(MAX_KEYWORD_LENGTH), primary_key=True, index=True
    )


class Extent(Base):
    """How much of an entry's P-positions the store holds."""

    __tablename__ = "extents"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    x_bound: Mapped[int] = mapped_column(
        BigInteger, comment="every column x < x_bound is computed"
    )
    y_bound: Mapped[int | None] = mapped_column(
        BigInteger,
        comment="rows y < y_bound of those columns; NULL: whole columns",
    )
    count: Mapped[int] = mapped_column(BigInteger, comment="P-positions stored")
    engine: Mapped[str] = mapped_column(String(32), comment="what computed them")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    entry: Mapped[Entry] = relationship(back_populates="extent")


class PositionChunk(Base):
    """The P-positions of the columns [x0, x1), compressed."""

    __tablename__ = "p_chunks"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    x0: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    x1: Mapped[int] = mapped_column(BigInteger)
    y_bound: Mapped[int | None] = mapped_column(
        BigInteger, comment="rows y < y_bound; NULL: whole columns"
    )
    count: Mapped[int] = mapped_column(BigInteger)
    encoding: Mapped[str] = mapped_column(
        String(32), comment="see catalog.store.chunks"
    )
    data: Mapped[bytes] = mapped_column(LargeBinary)
    checksum: Mapped[str] = mapped_column(
        String(64), comment="SHA-256 of the decoded positions as little-endian int64"
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Sequence(Base):
    """An integer sequence derived from the P-positions (y(x), a_n, b_n, …)."""

    __tablename__ = "sequences"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    offset: Mapped[int] = mapped_column(comment="index of the first term")
    length: Mapped[int] = mapped_column(BigInteger)
    encoding: Mapped[str] = mapped_column(String(32))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    checksum: Mapped[str] = mapped_column(String(64))
    description: Mapped[str] = mapped_column(Text, default="")


class SearchGram(Base):
    """Inverted index of sequence terms, over the first
    :data:`catalog.store.search.INDEXED_TERMS` terms of each stored sequence:
    for an integer sequence one row per position, keyed by a hash of the
    ``k`` terms that start there; for a bit sequence one row per distinct run
    of 3 to 15 bits, at its first place (see :mod:`catalog.store.search`)."""

    __tablename__ = "search_grams"

    gram: Mapped[int] = mapped_column(
        BigInteger, primary_key=True, comment="hash of k consecutive terms"
    )
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    kind: Mapped[int] = mapped_column(
        primary_key=True, comment="which sequence: see catalog.store.search.KINDS"
    )
    position: Mapped[int] = mapped_column(
        primary_key=True, comment="index of the first term, from the sequence's start"
    )


class Bitstring(Base):
    """A bitstring read off the P-positions (Maharaja's upper/lower string, S_t)."""

    __tablename__ = "bitstrings"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    start: Mapped[int] = mapped_column(BigInteger, comment="column of the first bit")
    length: Mapped[int] = mapped_column(BigInteger)
    bits: Mapped[str] = mapped_column(Text)


class Facts(Base):
    """The invariants researchers filter and sort by, one row per entry, in
    indexed columns (``wythoff list --where``); ``invariants`` holds the details.

    The theory columns (offset … adjoined_same) are written with the
    invariants; one_p_per_column, symmetric and xref_class with each fill, as
    observed on the columns computed so far. NULL: does not apply, or not
    known yet. Every index ends in entry_id, so a filter or sort on a column
    reads the index in (value, entry) order and pages by keyset.
    """

    __tablename__ = "facts"
    __table_args__ = (
        Index("ix_facts_offset", "offset_dx", "offset_dy", "entry_id"),
        Index("ix_facts_offset_dy", "offset_dy", "entry_id"),
        Index("ix_facts_defects", "defects", "entry_id"),
        Index("ix_facts_saturation_column", "saturation_column", "entry_id"),
        Index("ix_facts_deviation", "deviation_min", "deviation_max", "entry_id"),
        Index("ix_facts_deviation_max", "deviation_max", "entry_id"),
        Index("ix_facts_adjoined_same", "adjoined_same", "entry_id"),
        Index("ix_facts_one_p_per_column", "one_p_per_column", "entry_id"),
        Index("ix_facts_symmetric", "symmetric", "entry_id"),
        Index("ix_facts_xref_class", "xref_class", "entry_id"),
    )

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    offset_dx: Mapped[int | None] = mapped_column(
        BigInteger, comment="Hu-Sleator-Tsin offset (altered Wythoff games)"
    )
    offset_dy: Mapped[int | None] = mapped_column(BigInteger)
    offset_method: Mapped[str | None] = mapped_column(
        String(32), comment="'theorem-3' or 'theorem-2'"
    )
    defects: Mapped[int | None] = mapped_column(
        BigInteger,
        comment="area between the entry's bitstring and Wythoff's once balanced",
    )
    saturation_column: Mapped[int | None] = mapped_column(
        BigInteger, comment="first column from which diag[] is saturated (Lemma 2)"
    )
    deviation_min: Mapped[int | None] = mapped_column(
        BigInteger, comment="least b_n - a_n - n (Maharaja-type games)"
    )
    deviation_max: Mapped[int | None] = mapped_column(
        BigInteger, comment="largest b_n - a_n - n (Maharaja-type games)"
    )
    adjoined_same: Mapped[bool | None] = mapped_column(
        Boolean, comment="Wythoff plus single moves: are the P-positions Wythoff's?"
    )
    one_p_per_column: Mapped[bool | None] = mapped_column(
        Boolean, comment="every computed column holds exactly one P-position"
    )
    symmetric: Mapped[bool | None] = mapped_column(
        Boolean, comment="the computed P-positions are symmetric in x and y"
    )
    xref_class: Mapped[int | None] = mapped_column(
        Integer, comment="least entry number among this one and its xrefs"
    )


class Label(Base):
    """A family member's permanent label (``box.8.13``) and its parameters.

    p1..p3 are the parameter values in the family's order as integers (an
    enum value's position, a subset's bit mask), for indexed filtering.
    """

    __tablename__ = "labels"
    __table_args__ = (
        Index("ix_labels_family_p1", "family", "p1", "entry_id"),
        Index("ix_labels_family_p2", "family", "p2", "entry_id"),
        Index("ix_labels_family_p3", "family", "p3", "entry_id"),
        Index("ix_labels_family_entry_id", "family", "entry_id"),
    )

    label: Mapped[str] = mapped_column(String(200), primary_key=True)
    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), index=True
    )
    family: Mapped[str] = mapped_column(String(64))
    rank: Mapped[int] = mapped_column(
        Integer, comment="the family's id_base: the least is the primary label"
    )
    parameters: Mapped[dict[str, Any]]
    p1: Mapped[int | None] = mapped_column(BigInteger)
    p2: Mapped[int | None] = mapped_column(BigInteger)
    p3: Mapped[int | None] = mapped_column(BigInteger)


class Invariants(Base):
    """What the papers' theory says about an entry, computed from its definition.

    ``data`` is JSON-ready (see :mod:`catalog.compute.invariants`); entries a
    theory does not apply to store an empty object, so "computed, nothing
    applies" differs from "not computed yet". ``version`` is the compute
    layer's :data:`~catalog.compute.invariants.VERSION` at the time: an older
    row is recomputed on the next read.
    """

    __tablename__ = "invariants"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]]
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CrossReference(Base):
    """Two entries whose P-positions agree up to ``bound``."""

    __tablename__ = "xrefs"

    entry_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        ForeignKey("entries.id", ondelete="CASCADE"), primary_key=True
    )
    relation: Mapped[str] = mapped_column(String(32))
    bound: Mapped[int | None] = mapped_column(BigInteger)
