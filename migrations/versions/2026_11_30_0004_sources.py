"""Sources and audiences: per-source rows, audiences per section, per-audience term statistics.

Revision ID: 2026_11_30_0004
Revises: 2026_11_29_0002
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0004"
down_revision = "2026_11_29_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("004_sources.sql")


def downgrade() -> None:
    apply_sql_file("004_sources.down.sql")
    apply_sql_file("002_search.sql")  # 002's statistics and functions as they were
