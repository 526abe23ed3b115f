"""A null match_count is the default (10) in the search functions, not no limit.

Revision ID: 2026_12_01_0013
Revises: 2026_12_01_0012
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_01_0013"
down_revision = "2026_12_01_0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("013_match_count.sql")


def downgrade() -> None:
    apply_sql_file("013_match_count.down.sql")
