"""family labels, and the invariants in indexed columns (facts)

The offsets table becomes part of facts. For a catalog that already has
entries, facts is filled from what is stored: the offsets rows, the
invariants JSON (deviations, adjoined moves), the cross-references
(xref_class), and the stored sequences (one_p_per_column for entries with
whole columns, symmetric where the a_n sequence shows it; else NULL until the
entry is filled further).

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
    _fill_facts()
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


def _fill_facts() -> None:
    """Facts of the entries already in the catalog (see the module's text)."""
    bind = op.get_bind()
    facts = sa.table(
        "facts",
        *(
            sa.column(name)
            for name in (
                "entry_id",
                "offset_dx",
                "offset_dy",
                "offset_method",
                "defects",
                "saturation_column",
                "deviation_min",
                "deviation_max",
                "adjoined_same",
                "one_p_per_column",
                "symmetric",
                "xref_class",
            )
        ),
    )
    invariants = sa.table(
        "invariants", sa.column("entry_id"), sa.column("data", sa.JSON())
    )
    rows: dict[int, dict] = {}
    for entry_id, dx, dy, method, defects, column in bind.execute(
        sa.text(
            "SELECT entry_id, dx, dy, method, defects, saturation_column FROM offsets"
        )
    ):
        rows.setdefault(entry_id, {}).update(
            offset_dx=dx,
            offset_dy=dy,
            offset_method=method,
            defects=defects,
            saturation_column=column,
        )
    for entry_id, data in bind.execute(sa.select(invariants)):
        deviations = ((data or {}).get("deviations") or {}).get("value")
        adjoined = ((data or {}).get("adjoined_moves") or {}).get("value")
        row = rows.setdefault(entry_id, {})
        if deviations:
            row.update(deviation_min=deviations["min"], deviation_max=deviations["max"])
        if adjoined:
            row["adjoined_same"] = adjoined["same_p_positions_as_wythoff"]
    for entry_id, names in _sequence_names(bind).items():
        row = rows.setdefault(entry_id, {})
        row["one_p_per_column"] = "y" in names
        if "a" in names:
            row["symmetric"] = True
        if "y" in names:  # the fill links entries by y(x)
            row["xref_class"] = entry_id
    for entry_id, least in bind.execute(
        sa.text(
            "SELECT entry_id, MIN(other_id) FROM xrefs "
            "WHERE relation = 'same-p-positions' GROUP BY entry_id"
        )
    ):
        row = rows.setdefault(entry_id, {})
        row["xref_class"] = min(entry_id, least, row.get("xref_class") or entry_id)
    if rows:
        empty = {c.name: None for c in facts.columns if c.name != "entry_id"}
        bind.execute(
            sa.insert(facts),
            [
                {**empty, "entry_id": entry_id, **values}
                for entry_id, values in rows.items()
            ],
        )


def _sequence_names(bind: sa.Connection) -> dict[int, set[str]]:
    """The stored sequence names of each entry computed in whole columns."""
    out: dict[int, set[str]] = {}
    whole = bind.execute(
        sa.text("SELECT entry_id FROM extents WHERE y_bound IS NULL")
    ).scalars()
    for entry_id in whole:
        out[entry_id] = set()
    for entry_id, name in bind.execute(sa.text("SELECT entry_id, name FROM sequences")):
        if entry_id in out:
            out[entry_id].add(name)
    return out


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
