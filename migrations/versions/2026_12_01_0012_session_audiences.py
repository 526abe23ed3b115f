"""A chat session records the audiences it was opened for.

Revision ID: 2026_12_01_0012
Revises: 2026_12_01_0011
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_01_0012"
down_revision = "2026_12_01_0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("012_session_audiences.sql")


def downgrade() -> None:
    apply_sql_file("012_session_audiences.down.sql")
