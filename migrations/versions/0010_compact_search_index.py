"""the search index as segments of posting lists

search_grams held one row per (gram, entry, kind, position), three times over
(the table, its primary key, its entry index): three quarters of a
catalog's bytes. It becomes search_segments and search_postings: one row per
(segment, kind, gram) listing the entries that hold the gram, clustered on
its key (see catalog.store.search). The index is rebuilt here from the
stored sequences, a segment of 1024 entries at a time, and search_grams is
dropped.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 00:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEQUENCES = sa.table(
    "sequences",
    sa.column("entry_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("encoding", sa.String),
    sa.column("data", sa.LargeBinary),
)


def upgrade() -> None:
    op.create_table(
        "search_segments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column(
            "entries", sa.Integer(), nullable=False, comment="entries indexed in it"
        ),
        sa.Column(
            "level",
            sa.Integer(),
            nullable=False,
            comment="log8(entries): eight segments of a level are merged",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_segments")),
    )
    op.create_table(
        "search_postings",
        sa.Column("segment", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            sa.Integer(),
            nullable=False,
            comment="which sequence: see catalog.store.search.KINDS",
        ),
        sa.Column(
            "gram", sa.Integer(), nullable=False, comment="the gram: hash or bit run"
        ),
        sa.Column(
            "entries",
            sa.LargeBinary(),
            nullable=False,
            comment="entry numbers, ascending, as LEB128 deltas",
        ),
        sa.ForeignKeyConstraint(
            ["segment"],
            ["search_segments.id"],
            name=op.f("fk_search_postings_segment_search_segments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "segment", "kind", "gram", name=op.f("pk_search_postings")
        ),
        sqlite_with_rowid=False,
    )
    # The postings are what the search module writes today; computed with it
    # (and only here: later fills and `wythoff db reindex` write their own).
    from catalog.store import chunks, search

    bind = op.get_bind()
    numbers = bind.scalars(
        sa.select(SEQUENCES.c.entry_id).distinct().order_by(SEQUENCES.c.entry_id)
    ).all()

    def stored():
        for first in range(0, len(numbers), 256):
            batch: dict[int, dict] = {}
            for entry_id, name, encoding, data in bind.execute(
                sa.select(
                    SEQUENCES.c.entry_id,
                    SEQUENCES.c.name,
                    SEQUENCES.c.encoding,
                    SEQUENCES.c.data,
                ).where(SEQUENCES.c.entry_id.in_(numbers[first : first + 256]))
            ):
                batch.setdefault(entry_id, {})[name] = chunks.decode_ints(
                    encoding, data, search.INDEXED_TERMS
                )
            yield from sorted(batch.items())

    search.rebuild(bind, stored())
    with op.batch_alter_table("search_grams", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_search_grams_entry_id"))
    op.drop_table("search_grams")


def downgrade() -> None:
    # The older index is rebuilt by the older version's `wythoff db reindex`.
    op.create_table(
        "search_grams",
        sa.Column(
            "gram",
            sa.BigInteger(),
            nullable=False,
            comment="hash of k consecutive terms",
        ),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            sa.Integer(),
            nullable=False,
            comment="which sequence: see catalog.store.search.KINDS",
        ),
        sa.Column(
            "position",
            sa.Integer(),
            nullable=False,
            comment="index of the first term, from the sequence's start",
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_search_grams_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "gram", "entry_id", "kind", "position", name=op.f("pk_search_grams")
        ),
    )
    with op.batch_alter_table("search_grams", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_search_grams_entry_id"), ["entry_id"], unique=False
        )
    op.drop_table("search_postings")
    op.drop_table("search_segments")
