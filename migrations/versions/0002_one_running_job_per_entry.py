"""one running job per entry

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 03:38:30.939233
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Jobs left "running" by killed processes would break the unique index;
    # nothing computes during a migration, so they are all abandoned.
    op.execute(
        "UPDATE jobs SET state = 'failed', error = 'abandoned (running at 0002)' "
        "WHERE state = 'running'"
    )
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "heartbeat_at",
                sa.DateTime(timezone=True),
                nullable=True,
                comment="last sign of life of the claiming worker",
            )
        )
        batch_op.create_index(
            "uq_jobs_running_entry",
            ["entry_id"],
            unique=True,
            sqlite_where=sa.text("state = 'running'"),
            postgresql_where=sa.text("state = 'running'"),
        )


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_jobs_running_entry",
            sqlite_where=sa.text("state = 'running'"),
            postgresql_where=sa.text("state = 'running'"),
        )
        batch_op.drop_column("heartbeat_at")
