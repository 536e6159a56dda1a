"""cross-references by group: no pair of entries stored twice

xrefs held one row for each ordered pair of entries with equal y(x): a class
of k equal games cost k² rows (11 M rows, two thirds of a 10,000-entry
catalog). Each entry's facts row now names the group of its stored y(x)
(y_head, y_length, y_digest: see catalog.store.derived), and xref_links
links the groups of different lengths where the shorter y(x) begins the
longer one. The pairs are read from the groups. The groups are computed
here from the stored sequences, the links from the old pairs; the index's
HEAD grams (kind 7), the old candidates, go. xref_class keeps its values.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 03:00:00.000000
"""

import hashlib
from collections.abc import Sequence

import numpy as np
import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEQUENCES = sa.table(
    "sequences",
    sa.column("entry_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("encoding", sa.String),
    sa.column("data", sa.LargeBinary),
)
FACTS = sa.table(
    "facts",
    sa.column("entry_id", sa.Integer),
    sa.column("y_head", sa.BigInteger),
    sa.column("y_length", sa.BigInteger),
    sa.column("y_digest", sa.BigInteger),
    sa.column("xref_class", sa.Integer),
)
#: The old index's kind of y(x)'s head grams, and its head's length.
HEAD = 7
HEAD_TERMS = 100


def upgrade() -> None:
    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "y_head",
                sa.BigInteger(),
                nullable=True,
                comment="y(x)'s first 100 terms, hashed (NULL: fewer, or no y(x))",
            )
        )
        batch_op.add_column(
            sa.Column(
                "y_length",
                sa.BigInteger(),
                nullable=True,
                comment="terms of the stored y(x)",
            )
        )
        batch_op.add_column(
            sa.Column(
                "y_digest",
                sa.BigInteger(),
                nullable=True,
                comment="the stored y(x), hashed",
            )
        )
        batch_op.create_index(
            "ix_facts_y",
            ["y_head", "y_length", "y_digest", "entry_id"],
            unique=False,
        )
    op.create_table(
        "xref_links",
        sa.Column(
            "head", sa.BigInteger(), nullable=False, comment="both groups' y_head"
        ),
        sa.Column("short_length", sa.BigInteger(), nullable=False),
        sa.Column("short_digest", sa.BigInteger(), nullable=False),
        sa.Column("long_length", sa.BigInteger(), nullable=False),
        sa.Column("long_digest", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "head",
            "short_length",
            "short_digest",
            "long_length",
            "long_digest",
            name=op.f("pk_xref_links"),
        ),
        sqlite_with_rowid=False,
    )
    with op.batch_alter_table("xref_links", schema=None) as batch_op:
        batch_op.create_index(
            "ix_xref_links_long", ["head", "long_length", "long_digest"], unique=False
        )
    bind = op.get_bind()
    _groups(bind)
    bind.execute(
        sa.text(
            "INSERT INTO xref_links (head, short_length, short_digest, "
            "long_length, long_digest) "
            "SELECT DISTINCT a.y_head, a.y_length, a.y_digest, b.y_length, b.y_digest "
            "FROM xrefs x JOIN facts a ON a.entry_id = x.entry_id "
            "JOIN facts b ON b.entry_id = x.other_id "
            "WHERE a.y_head = b.y_head AND a.y_length < b.y_length"
        )
    )
    op.drop_table("xrefs")
    bind.execute(
        sa.text("DELETE FROM search_postings WHERE kind = :kind"), {"kind": HEAD}
    )


def _groups(bind: sa.Connection) -> None:
    """Each entry's group, from its stored y(x) (computed with the code's
    own function: the groups must be those a fill writes)."""
    from catalog.store import chunks, derived

    numbers = list(
        bind.scalars(
            sa.select(SEQUENCES.c.entry_id)
            .where(SEQUENCES.c.name == "y")
            .order_by(SEQUENCES.c.entry_id)
        )
    )
    for first in range(0, len(numbers), 256):
        rows = bind.execute(
            sa.select(SEQUENCES.c.entry_id, SEQUENCES.c.encoding, SEQUENCES.c.data)
            .where(
                SEQUENCES.c.name == "y",
                SEQUENCES.c.entry_id.in_(numbers[first : first + 256]),
            )
            .order_by(SEQUENCES.c.entry_id)
        )
        for entry_id, encoding, data in rows:
            group = derived.column_group(chunks.decode_ints(encoding, data))
            if group is None:
                continue
            values = dict(zip(("y_head", "y_length", "y_digest"), group, strict=True))
            done = bind.execute(
                sa.update(FACTS).where(FACTS.c.entry_id == entry_id).values(**values)
            )
            if done.rowcount == 0:
                bind.execute(
                    sa.insert(FACTS).values(
                        entry_id=entry_id, xref_class=entry_id, **values
                    )
                )


def downgrade() -> None:
    op.create_table(
        "xrefs",
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("relation", sa.String(length=32), nullable=False),
        sa.Column("bound", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_xrefs_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["other_id"],
            ["entries.id"],
            name=op.f("fk_xrefs_other_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("entry_id", "other_id", name=op.f("pk_xrefs")),
    )
    bind = op.get_bind()
    same = "a.y_head = b.y_head AND a.y_length = b.y_length AND a.y_digest = b.y_digest"
    short = (
        "a.y_head = l.head AND a.y_length = l.short_length"
        " AND a.y_digest = l.short_digest"
    )
    long = (
        "b.y_head = l.head AND b.y_length = l.long_length"
        " AND b.y_digest = l.long_digest"
    )
    pairs = (
        "SELECT a.entry_id, b.entry_id, 'same-p-positions', a.y_length "
        f"FROM facts a JOIN facts b ON {same} AND a.entry_id != b.entry_id",
        "SELECT a.entry_id, b.entry_id, 'same-p-positions', a.y_length "
        f"FROM xref_links l JOIN facts a ON {short} JOIN facts b ON {long}",
        "SELECT b.entry_id, a.entry_id, 'same-p-positions', a.y_length "
        f"FROM xref_links l JOIN facts a ON {short} JOIN facts b ON {long}",
    )
    for query in pairs:
        bind.execute(
            sa.text(f"INSERT INTO xrefs (entry_id, other_id, relation, bound) {query}")
        )
    _head_grams(bind)
    op.drop_table("xref_links")
    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.drop_index("ix_facts_y")
        batch_op.drop_column("y_digest")
        batch_op.drop_column("y_length")
        batch_op.drop_column("y_head")


def _head_grams(bind: sa.Connection) -> None:
    """The old candidates: one index segment of y(x)'s head grams (4 bytes
    of BLAKE2b of its first 100 terms, little-endian int64s)."""
    from catalog.store import chunks, search

    by_gram: dict[int, list[int]] = {}
    rows = bind.execute(
        sa.select(SEQUENCES.c.entry_id, SEQUENCES.c.encoding, SEQUENCES.c.data)
        .where(SEQUENCES.c.name == "y")
        .order_by(SEQUENCES.c.entry_id)
    )
    for entry_id, encoding, data in rows:
        terms = chunks.decode_ints(encoding, data, HEAD_TERMS)
        if len(terms) < HEAD_TERMS:
            continue
        head = np.asarray(terms[:HEAD_TERMS], dtype="<i8").tobytes()
        digest = hashlib.blake2b(head, digest_size=4).digest()
        gram = int.from_bytes(digest, "little", signed=True)
        by_gram.setdefault(gram, []).append(entry_id)
    if not by_gram:
        return
    entries = len({e for found in by_gram.values() for e in found})
    segment = bind.execute(
        sa.text(
            "INSERT INTO search_segments (entries, level) VALUES (:n, :level) "
            "RETURNING id"
        ),
        {"n": entries, "level": search.level_of(entries)},
    ).scalar_one()
    bind.execute(
        sa.text(
            "INSERT INTO search_postings (segment, kind, gram, entries) "
            "VALUES (:segment, :kind, :gram, :entries)"
        ),
        [
            {
                "segment": segment,
                "kind": HEAD,
                "gram": gram,
                "entries": search.pack(np.array(found, dtype=np.int64)),
            }
            for gram, found in sorted(by_gram.items())
        ],
    )
