"""bit sequences in the search index by their distinct runs

The index rows of the bit sequences were 16-bit grams at every position
(kind 5): a 0/1 query shorter than 16 terms found nothing, and a longer one
joined grams that match nearly everywhere. They become one row per distinct
run of 3 to 15 bits, at its first place (kind 6, see catalog.store.search).
No table changes; the rows are rebuilt here from the stored bit sequences,
so that a catalog answers 0/1 queries right after the upgrade.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 10:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GRAMS = sa.table(
    "search_grams",
    sa.column("gram", sa.BigInteger),
    sa.column("entry_id", sa.Integer),
    sa.column("kind", sa.Integer),
    sa.column("position", sa.Integer),
)
SEQUENCES = sa.table(
    "sequences",
    sa.column("entry_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("encoding", sa.String),
    sa.column("data", sa.LargeBinary),
)
OLD_BIT_GRAMS = 5


def upgrade() -> None:
    # The rows are what the search module writes today; computed with it
    # (and only here: the next fill or `wythoff db reindex` rewrites them).
    from catalog.store import chunks, search

    bind = op.get_bind()
    bind.execute(
        sa.delete(GRAMS).where(GRAMS.c.kind.in_([OLD_BIT_GRAMS, search.BIT_FACTORS]))
    )
    numbers = bind.scalars(
        sa.select(SEQUENCES.c.entry_id).where(SEQUENCES.c.name == "bits")
    ).all()
    for first in range(0, len(numbers), 500):
        stored = bind.execute(
            sa.select(SEQUENCES.c.entry_id, SEQUENCES.c.encoding, SEQUENCES.c.data)
            .where(SEQUENCES.c.name == "bits")
            .where(SEQUENCES.c.entry_id.in_(numbers[first : first + 500]))
        ).all()
        rows = [
            row
            for entry_id, encoding, data in stored
            for row in search.gram_rows(
                entry_id,
                "bits",
                chunks.decode_ints(encoding, data, search.INDEXED_TERMS),
            )
        ]
        if rows:
            bind.execute(sa.insert(GRAMS), rows)


def downgrade() -> None:
    # The older index is rebuilt by the older version's `wythoff db reindex`.
    op.get_bind().execute(sa.delete(GRAMS).where(GRAMS.c.kind == 6))
