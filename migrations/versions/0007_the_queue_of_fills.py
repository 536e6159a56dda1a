"""the queue of fills: attempts, priority, backoff, definition key, progress

Jobs of kind ``fill`` are the queue that ``wythoff worker`` drains
(catalog.store.jobs). At most one per entry and bound is queued, so that
duplicate requests collapse into one job.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nothing queued jobs before this revision; should a row say so, only the
    # oldest per entry stays queued, or the unique index could not be built.
    op.execute(
        "UPDATE jobs SET state = 'failed', error = 'superseded (0007)' "
        "WHERE state = 'queued' AND id NOT IN "
        "(SELECT min(id) FROM jobs WHERE state = 'queued' "
        "GROUP BY entry_id, target)"
    )
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "attempts",
                sa.Integer(),
                server_default=sa.text("0"),
                nullable=False,
                comment="claims taken so far",
            )
        )
        batch_op.add_column(
            sa.Column(
                "priority",
                sa.Integer(),
                server_default=sa.text("0"),
                nullable=False,
                comment="higher runs first",
            )
        )
        batch_op.add_column(
            sa.Column(
                "run_after",
                sa.DateTime(timezone=True),
                nullable=True,
                comment="a queued job waits until then (backoff)",
            )
        )
        batch_op.add_column(
            sa.Column(
                "entry_key",
                sa.String(length=64),
                nullable=True,
                comment="the entry's definition key when queued",
            )
        )
        batch_op.add_column(
            sa.Column(
                "started_from",
                sa.BigInteger(),
                nullable=True,
                comment="columns stored when the claim was taken",
            )
        )
        batch_op.create_index(
            "uq_jobs_queued_entry",
            ["entry_id", "target"],
            unique=True,
            sqlite_where=sa.text("state = 'queued'"),
            postgresql_where=sa.text("state = 'queued'"),
        )
        batch_op.create_index(
            "ix_jobs_state_priority", ["state", "priority", "id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_index("ix_jobs_state_priority")
        batch_op.drop_index(
            "uq_jobs_queued_entry",
            sqlite_where=sa.text("state = 'queued'"),
            postgresql_where=sa.text("state = 'queued'"),
        )
        batch_op.drop_column("started_from")
        batch_op.drop_column("entry_key")
        batch_op.drop_column("run_after")
        batch_op.drop_column("priority")
        batch_op.drop_column("attempts")
