"""window prints: the digest of each entry's P-positions below 1, 2, 4, … 4096

``wythoff identify`` finds the stored entries with given P-positions by one
indexed read of this table (catalog.store.prints), then checks each. The
prints of the entries already stored are computed here from their chunks.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 16:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "window_prints",
        sa.Column(
            "size", sa.Integer(), nullable=False, comment="the window x, y < size"
        ),
        sa.Column(
            "digest",
            sa.BigInteger(),
            nullable=False,
            comment="first 8 bytes of BLAKE2b of the window's P-positions (int64)",
        ),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_window_prints_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "size", "digest", "entry_id", name=op.f("pk_window_prints")
        ),
    )
    with op.batch_alter_table("window_prints", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_window_prints_entry_id"), ["entry_id"], unique=False
        )
    # The prints of what is stored, with the store's own readers (only here:
    # the next fill or `wythoff db reindex` rewrites an entry's prints).
    from catalog.store import prints

    prints.rebuild(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table("window_prints", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_window_prints_entry_id"))
    op.drop_table("window_prints")
