"""cached results: answers that depend on their question alone

Grundy tables, extensions and identify's games are computed again only when
this cache lacks them (catalog.store.results). Empty at first.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 21:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column(
            "kind",
            sa.String(length=16),
            nullable=False,
            comment="grundy, extensions, …",
        ),
        sa.Column(
            "digest",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 (hex) of the question: kind, definition, bound, data",
        ),
        sa.Column(
            "entry_id",
            sa.Integer(),
            nullable=True,
            comment="the entry asked about, if any",
        ),
        sa.Column(
            "body",
            sa.LargeBinary(),
            nullable=False,
            comment="the answer, zlib-compressed",
        ),
        sa.Column("bytes", sa.Integer(), nullable=False, comment="length of body"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_results_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("kind", "digest", name=op.f("pk_results")),
    )
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.create_index("ix_results_created_at", ["created_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_results_entry_id"), ["entry_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_results_entry_id"))
        batch_op.drop_index("ix_results_created_at")
    op.drop_table("results")
