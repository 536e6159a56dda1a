"""The catalog's tables, defined once, as SQLAlchemy Core ``Table`` objects.

The read paths (``wythoff show``, ``is-p``, the API's reads) run statements
built on these and never import ``sqlalchemy.orm``, which costs a command a
fifth of a second at every start (``tests/cli/test_startup.py``). The typed
ORM classes of :mod:`catalog.store.models`, which the writes use, are mapped
onto these same tables, and Alembic compares its history with this
:data:`metadata` (``tests/test_migrations.py``). The job queue's table is
declared with its model in :mod:`catalog.store.job_model`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

from catalog.inputs import MAX_KEYWORD_LENGTH, MAX_NAME_LENGTH

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _entry_id(*, primary_key: bool = False, index: bool | None = None) -> Column:
    """The column that ties a row to its entry (deleted with it)."""
    return Column(
        "entry_id",
        Integer,
        ForeignKey("entries.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
        index=index,
    )


def _key(what: str) -> Column:
    """The unique SHA-256 that finds a row by its canonical JSON."""
    return Column(
        "key",
        String(64),
        nullable=False,
        unique=True,
        comment=f"SHA-256 of the canonical {what}",
    )


def _created_at(name: str = "created_at") -> Column:
    return Column(name, DateTime(timezone=True), nullable=False)


#: A rule set: rays, single moves and special rules, without alterations.
games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    _key("rules JSON"),
    Column("rays", JSON, nullable=False),
    Column("moves", JSON, nullable=False),
    Column("special", JSON, nullable=False),
    _created_at(),
)

#: A finite set of cells forced P and a disjoint one forced N.
alterations = Table(
    "alterations",
    metadata,
    Column("id", Integer, primary_key=True),
    _key("alteration JSON"),
    Column("forced_p", JSON, nullable=False),
    Column("forced_n", JSON, nullable=False),
    Column("cells", Integer, nullable=False, comment="number of forced cells, P and N"),
    Column("width", Integer, nullable=False, comment="1 + largest x of a forced cell"),
    Column("height", Integer, nullable=False, comment="1 + largest y of a forced cell"),
    _created_at(),
)

#: A catalog entry: a permanent W-number for one game with one alteration.
entries = Table(
    "entries",
    metadata,
    Column(
        "id",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="the number of W…",
    ),
    _key("definition"),
    Column("name", String(MAX_NAME_LENGTH), nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("references", JSON, nullable=False),
    Column("keywords", JSON, nullable=False),
    Column("provenance", Text, nullable=False, default=""),
    Column(
        "source",
        String(16),
        nullable=False,
        comment="'seed' for seeds/ files, 'user' for wythoff add",
    ),
    Column(
        "definition",
        JSON,
        nullable=False,
        comment="canonical definition (boxes expanded)",
    ),
    Column("game_id", Integer, ForeignKey("games.id"), nullable=False, index=True),
    Column(
        "alteration_id",
        Integer,
        ForeignKey("alterations.id"),
        nullable=True,
        index=True,
    ),
    _created_at(),
    _created_at("updated_at"),
)

entry_keywords = Table(
    "entry_keywords",
    metadata,
    _entry_id(primary_key=True),
    Column(
        "keyword",
        String(MAX_KEYWORD_LENGTH),
        nullable=False,
        primary_key=True,
        index=True,
    ),
)

#: How much of an entry's P-positions the store holds.
extents = Table(
    "extents",
    metadata,
    _entry_id(primary_key=True),
    Column(
        "x_bound",
        BigInteger,
        nullable=False,
        comment="every column x < x_bound is computed",
    ),
    Column(
        "y_bound",
        BigInteger,
        nullable=True,
        comment="rows y < y_bound of those columns; NULL: whole columns",
    ),
    Column("count", BigInteger, nullable=False, comment="P-positions stored"),
    Column("engine", String(32), nullable=False, comment="what computed them"),
    _created_at("updated_at"),
)

#: The P-positions of the columns [x0, x1), compressed.
p_chunks = Table(
    "p_chunks",
    metadata,
    _entry_id(primary_key=True),
    Column("x0", BigInteger, primary_key=True),
    Column("x1", BigInteger, nullable=False),
    Column(
        "y_bound",
        BigInteger,
        nullable=True,
        comment="rows y < y_bound; NULL: whole columns",
    ),
    Column("count", BigInteger, nullable=False),
    Column("encoding", String(32), nullable=False, comment="see catalog.store.chunks"),
    Column("data", LargeBinary, nullable=False),
    Column(
        "checksum",
        String(64),
        nullable=False,
        comment="SHA-256 of the decoded positions as little-endian int64",
    ),
    _created_at(),
)

#: An integer sequence derived from the P-positions (y(x), a_n, b_n, …).
sequences = Table(
    "sequences",
    metadata,
    _entry_id(primary_key=True),
    Column("name", String(32), primary_key=True),
    Column("offset", Integer, nullable=False, comment="index of the first term"),
    Column("length", BigInteger, nullable=False),
    Column("encoding", String(32), nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("checksum", String(64), nullable=False),
    Column("description", Text, nullable=False, default=""),
)

#: The search index of sequence terms (see :mod:`catalog.store.search`) is a
#: set of segments, like a search engine's: each write adds one segment of
#: posting lists (the entries indexed together), and the segments of a level
#: are merged into one of the next level, so a catalog holds a few dozen.
search_segments = Table(
    "search_segments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("entries", Integer, nullable=False, comment="entries indexed in it"),
    Column(
        "level",
        Integer,
        nullable=False,
        comment="log8(entries): eight segments of a level are merged",
    ),
)

#: One posting list per (segment, kind, gram): the entries of the segment
#: whose sequence of that kind holds the gram (a 32-bit hash of 3 terms, or
#: a run of bits), as varint deltas. Clustered on its key (no rowid on
#: SQLite): the table is its own index.
search_postings = Table(
    "search_postings",
    metadata,
    Column(
        "segment",
        Integer,
        ForeignKey("search_segments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column(
        "kind",
        Integer,
        primary_key=True,
        comment="which sequence: see catalog.store.search.KINDS",
    ),
    Column("gram", Integer, primary_key=True, comment="the gram: hash or bit run"),
    Column(
        "entries",
        LargeBinary,
        nullable=False,
        comment="entry numbers, ascending, as LEB128 deltas",
    ),
    sqlite_with_rowid=False,
)

#: A bitstring read off the P-positions (Maharaja's upper/lower string, S_t).
bitstrings = Table(
    "bitstrings",
    metadata,
    _entry_id(primary_key=True),
    Column("kind", String(32), primary_key=True),
    Column("start", BigInteger, nullable=False, comment="column of the first bit"),
    Column("length", BigInteger, nullable=False),
    Column("bits", Text, nullable=False),
)

#: The invariants researchers filter and sort by, one row per entry, in
#: indexed columns (``wythoff list --where``); ``invariants`` holds the
#: details. The theory columns (offset … adjoined_same) are written with the
#: invariants; one_p_per_column, symmetric and xref_class with each fill, as
#: observed on the columns computed so far. NULL: does not apply, or not
#: known yet. Every index ends in entry_id, so a filter or sort on a column
#: reads the index in (value, entry) order and pages by keyset.
facts = Table(
    "facts",
    metadata,
    _entry_id(primary_key=True),
    Column(
        "offset_dx",
        BigInteger,
        comment="Hu-Sleator-Tsin offset (altered Wythoff games)",
    ),
    Column("offset_dy", BigInteger),
    Column("offset_method", String(32), comment="'theorem-3' or 'theorem-2'"),
    Column(
        "defects",
        BigInteger,
        comment="area between the entry's bitstring and Wythoff's once balanced",
    ),
    Column(
        "saturation_column",
        BigInteger,
        comment="first column from which diag[] is saturated (Lemma 2)",
    ),
    Column(
        "deviation_min",
        BigInteger,
        comment="least b_n - a_n - n (Maharaja-type games)",
    ),
    Column(
        "deviation_max",
        BigInteger,
        comment="largest b_n - a_n - n (Maharaja-type games)",
    ),
    Column(
        "adjoined_same",
        Boolean,
        comment="Wythoff plus single moves: are the P-positions Wythoff's?",
    ),
    Column(
        "one_p_per_column",
        Boolean,
        comment="every computed column holds exactly one P-position",
    ),
    Column(
        "symmetric",
        Boolean,
        comment="the computed P-positions are symmetric in x and y",
    ),
    Column(
        "xref_class",
        Integer,
        comment="least entry number among this one and its xrefs",
    ),
    Column(
        "y_head",
        BigInteger,
        comment="y(x)'s first 100 terms, hashed (NULL: fewer, or no y(x))",
    ),
    Column("y_length", BigInteger, comment="terms of the stored y(x)"),
    Column("y_digest", BigInteger, comment="the stored y(x), hashed"),
    Column(
        "cone_slope",
        BigInteger,
        comment="d with B_n - A_n = d·n on the computed pairs (cone games)",
    ),
    Column(
        "cone_s",
        BigInteger,
        comment="s with B_n = s·A_n + t·n on the computed pairs",
    ),
    Column("cone_t", BigInteger),
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
    Index("ix_facts_y", "y_head", "y_length", "y_digest", "entry_id"),
    Index("ix_facts_cone_slope", "cone_slope", "entry_id"),
    Index("ix_facts_cone_form", "cone_s", "cone_t", "entry_id"),
)

#: A family member's permanent label (``box.8.13``) and its parameters.
#: p1..p3 are the parameter values in the family's order as integers (an
#: enum value's position, a subset's bit mask), for indexed filtering.
labels = Table(
    "labels",
    metadata,
    Column("label", String(200), primary_key=True),
    _entry_id(index=True),
    Column("family", String(64), nullable=False),
    Column(
        "rank",
        Integer,
        nullable=False,
        comment="the family's id_base: the least is the primary label",
    ),
    Column("parameters", JSON, nullable=False),
    Column("p1", BigInteger),
    Column("p2", BigInteger),
    Column("p3", BigInteger),
    Index("ix_labels_family_p1", "family", "p1", "entry_id"),
    Index("ix_labels_family_p2", "family", "p2", "entry_id"),
    Index("ix_labels_family_p3", "family", "p3", "entry_id"),
    Index("ix_labels_family_entry_id", "family", "entry_id"),
)

#: What the papers' theory says about an entry, computed from its
#: definition. ``data`` is JSON-ready (see :mod:`catalog.compute.invariants`);
#: entries a theory does not apply to store an empty object, so "computed,
#: nothing applies" differs from "not computed yet". ``version`` is the
#: compute layer's :data:`~catalog.compute.invariants.VERSION` at the time:
#: an older row is recomputed on the next read.
invariants = Table(
    "invariants",
    metadata,
    _entry_id(primary_key=True),
    Column("version", Integer, nullable=False),
    Column("data", JSON, nullable=False),
    _created_at("computed_at"),
)

#: Cross-references between groups of entries (catalog.store.derived): the
#: entries whose stored y(x) is the same (``facts``' y_head, y_length,
#: y_digest) refer to each other, and to the members of each group linked
#: here: a shorter y(x) that the longer one begins with (the same head).
#: One row per pair of groups, however many entries each holds.
xref_links = Table(
    "xref_links",
    metadata,
    Column("head", BigInteger, primary_key=True, comment="both groups' y_head"),
    Column("short_length", BigInteger, primary_key=True),
    Column("short_digest", BigInteger, primary_key=True),
    Column("long_length", BigInteger, primary_key=True),
    Column("long_digest", BigInteger, primary_key=True),
    Index("ix_xref_links_long", "head", "long_length", "long_digest"),
    sqlite_with_rowid=False,
)

#: Fingerprints of each entry's P-positions in the windows x, y < size, for
#: the sizes of a ladder (catalog.store.prints): identify finds the entries
#: with given P-positions by one indexed read, then checks them.
window_prints = Table(
    "window_prints",
    metadata,
    Column("size", Integer, primary_key=True, comment="the window x, y < size"),
    Column(
        "digest",
        BigInteger,
        primary_key=True,
        comment="first 8 bytes of BLAKE2b of the window's P-positions (int64)",
    ),
    _entry_id(primary_key=True, index=True),
)

#: Answers that depend on their question alone (a definition and a bound, or
#: identify's data): Grundy tables, extensions, identify's games. A cache
#: (catalog.store.results): a row may go at any time, the oldest first once
#: the rows pass their configured bytes; the next request computes it again.
results = Table(
    "results",
    metadata,
    Column("kind", String(16), primary_key=True, comment="grundy, extensions, …"),
    Column(
        "digest",
        String(64),
        primary_key=True,
        comment="SHA-256 (hex) of the question: kind, definition, bound, data",
    ),
    Column(
        "entry_id",
        Integer,
        ForeignKey("entries.id", ondelete="CASCADE"),
        nullable=True,
        index=True,
        comment="the entry asked about, if any",
    ),
    Column("body", LargeBinary, nullable=False, comment="the answer, zlib-compressed"),
    Column("bytes", Integer, nullable=False, comment="length of body"),
    _created_at(),
    Index("ix_results_created_at", "created_at"),
)
