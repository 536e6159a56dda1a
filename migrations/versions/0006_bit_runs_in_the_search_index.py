"""bit sequences in the search index by their distinct runs

The index rows of the bit sequences were 16-bit grams at every position
(kind 5): a 0/1 query shorter than 16 terms found nothing, and a longer one
joined grams that match nearly everywhere. They become one row per distinct
run of 3 to 15 bits, at its first place (kind 6, see catalog.store.search).
No table changes; the old rows are deleted, and migration 0010 rebuilds the
whole index from the stored sequences.

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
OLD_BIT_GRAMS = 5


def upgrade() -> None:
    # The old rows go; the index is rebuilt from the stored sequences by
    # 0010 (the compact index), which every upgrade through here reaches.
    op.get_bind().execute(sa.delete(GRAMS).where(GRAMS.c.kind == OLD_BIT_GRAMS))


def downgrade() -> None:
    # The older index is rebuilt by the older version's `wythoff db reindex`.
    op.get_bind().execute(sa.delete(GRAMS).where(GRAMS.c.kind == 6))
