"""family labels, and the invariants in indexed columns (facts)

The offsets table becomes part of facts: its rows are copied over.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 09:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FACT_INDEXES = {
    "ix_facts_offset": ["offset_dx", "offset_dy", "entry_id"],
    "ix_facts_offset_dy": ["offset_dy", "entry_id"],
    "ix_facts_defects": ["defects", "entry_id"],
    "ix_facts_saturation_column": ["saturation_column", "entry_id"],
    "ix_facts_deviation": ["deviation_min", "deviation_max", "entry_id"],
    "ix_facts_deviation_max": ["deviation_max", "entry_id"],
    "ix_facts_adjoined_same": ["adjoined_same", "entry_id"],
    "ix_facts_one_p_per_column": ["one_p_per_column", "entry_id"],
    "ix_facts_symmetric": ["symmetric", "entry_id"],
    "ix_facts_xref_class": ["xref_class", "entry_id"],
}
LABEL_INDEXES = {
    "ix_labels_family_p1": ["family", "p1", "entry_id"],
    "ix_labels_family_p2": ["family", "p2", "entry_id"],
    "ix_labels_family_p3": ["family", "p3", "entry_id"],
    "ix_labels_family_entry_id": ["family", "entry_id"],
}


def upgrade() -> None:
    op.create_table(
        "facts",
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column(
            "offset_dx",
            sa.BigInteger(),
            nullable=True,
            comment="Hu-Sleator-Tsin offset (altered Wythoff games)",
        ),
        sa.Column("offset_dy", sa.BigInteger(), nullable=True),
        sa.Column(
            "offset_method",
            sa.String(length=32),
            nullable=True,
            comment="'theorem-3' or 'theorem-2'",
        ),
        sa.Column(
            "defects",
            sa.BigInteger(),
            nullable=True,
            comment="area between the entry's bitstring and Wythoff's once balanced",
        ),
        sa.Column(
            "saturation_column",
            sa.BigInteger(),
            nullable=True,
            comment="first column from which diag[] is saturated (Lemma 2)",
        ),
        sa.Column(
            "deviation_min",
            sa.BigInteger(),
            nullable=True,
            comment="least b_n - a_n - n (Maharaja-type games)",
        ),
        sa.Column(
            "deviation_max",
            sa.BigInteger(),
            nullable=True,
            comment="largest b_n - a_n - n (Maharaja-type games)",
        ),
        sa.Column(
            "adjoined_same",
            sa.Boolean(),
            nullable=True,
            comment="Wythoff plus single moves: are the P-positions Wythoff's?",
        ),
        sa.Column(
            "one_p_per_column",
            sa.Boolean(),
            nullable=True,
            comment="every computed column holds exactly one P-position",
        ),
        sa.Column(
            "symmetric",
            sa.Boolean(),
            nullable=True,
            comment="the computed P-positions are symmetric in x and y",
        ),
        sa.Column(
            "xref_class",
            sa.Integer(),
            nullable=True,
            comment="least entry number among this one and its xrefs",
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_facts_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("entry_id", name=op.f("pk_facts")),
    )
    for name, columns in FACT_INDEXES.items():
        op.create_index(name, "facts", columns, unique=False)
    op.execute(
        "INSERT INTO facts (entry_id, offset_dx, offset_dy, offset_method, defects,"
        " saturation_column) SELECT entry_id, dx, dy, method, defects,"
        " saturation_column FROM offsets"
    )
    op.drop_table("offsets")

    op.create_table(
        "labels",
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("family", sa.String(length=64), nullable=False),
        sa.Column(
            "rank",
            sa.Integer(),
            nullable=False,
            comment="the family's id_base: the least is the primary label",
        ),
        sa.Column("parameters", sa.JSON(), nullable=False),
        sa.Column("p1", sa.BigInteger(), nullable=True),
        sa.Column("p2", sa.BigInteger(), nullable=True),
        sa.Column("p3", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_labels_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("label", name=op.f("pk_labels")),
    )
    op.create_index(op.f("ix_labels_entry_id"), "labels", ["entry_id"], unique=False)
    for name, columns in LABEL_INDEXES.items():
        op.create_index(name, "labels", columns, unique=False)


def downgrade() -> None:
    op.drop_table("labels")
    op.create_table(
        "offsets",
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("dx", sa.BigInteger(), nullable=False),
        sa.Column("dy", sa.BigInteger(), nullable=False),
        sa.Column(
            "method",
            sa.String(length=32),
            nullable=False,
            comment="'theorem-3', 'theorem-2' or 'observed'",
        ),
        sa.Column(
            "defects",
            sa.BigInteger(),
            nullable=True,
            comment="area between the entry's bitstring and Wythoff's once balanced",
        ),
        sa.Column(
            "saturation_column",
            sa.BigInteger(),
            nullable=True,
            comment="first column from which diag[] is saturated (Lemma 2)",
        ),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["entries.id"],
            name=op.f("fk_offsets_entry_id_entries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("entry_id", name=op.f("pk_offsets")),
    )
    op.execute(
        "INSERT INTO offsets (entry_id, dx, dy, method, defects, saturation_column,"
        " computed_at) SELECT entry_id, offset_dx, offset_dy, offset_method,"
        " defects, saturation_column, CURRENT_TIMESTAMP FROM facts"
        " WHERE offset_dx IS NOT NULL"
    )
    op.drop_table("facts")
