"""Operations: docs_sync_run (every sync, per source), docs_sync_schedule (the last re-check).

Revision ID: 2026_11_30_0006
Revises: 2026_11_30_0003
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0006"
down_revision = "2026_11_30_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("006_operations.sql")


def downgrade() -> None:
    apply_sql_file("006_operations.down.sql")
