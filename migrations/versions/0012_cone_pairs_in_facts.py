"""cone pairs in facts: the papers' forms of a cone game's P-positions

For cone games with Nim's rays (a-Wythoff, (s,t)-Wythoff, m-modular
Wythoff), the upper P-positions (A_n, B_n) are tested against Fraenkel's
forms: cone_slope is d when B_n - A_n = d·n on every computed pair,
cone_s and cone_t are s and t when B_n = s·A_n + t·n (the invariant
``cone_pairs``, catalog.compute.invariants). NULL: no such form, or not a
cone game. Written with the invariants; empty at first.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "cone_slope",
                sa.BigInteger(),
                nullable=True,
                comment="d with B_n - A_n = d·n on the computed pairs (cone games)",
            )
        )
        batch_op.add_column(
            sa.Column(
                "cone_s",
                sa.BigInteger(),
                nullable=True,
                comment="s with B_n = s·A_n + t·n on the computed pairs",
            )
        )
        batch_op.add_column(sa.Column("cone_t", sa.BigInteger(), nullable=True))
        batch_op.create_index(
            "ix_facts_cone_slope", ["cone_slope", "entry_id"], unique=False
        )
        batch_op.create_index(
            "ix_facts_cone_form", ["cone_s", "cone_t", "entry_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.drop_index("ix_facts_cone_form")
        batch_op.drop_index("ix_facts_cone_slope")
        batch_op.drop_column("cone_t")
        batch_op.drop_column("cone_s")
        batch_op.drop_column("cone_slope")
