"""search index of sequence terms

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 04:09:38.517120
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    with op.batch_alter_table("search_grams", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_search_grams_entry_id"))

    op.drop_table("search_grams")
