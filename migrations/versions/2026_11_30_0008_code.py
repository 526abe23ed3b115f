"""Code beside the docs: identifiers searchable by their words; the commit each source was synced at.

Revision ID: 2026_11_30_0008
Revises: 2026_11_30_0007
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0008"
down_revision = "2026_11_30_0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("008_code.sql")


def downgrade() -> None:
    apply_sql_file("008_code.down.sql")
