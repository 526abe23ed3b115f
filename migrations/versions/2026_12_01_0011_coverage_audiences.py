"""docs_term_coverage returns only the sections its `audiences` may see.

Revision ID: 2026_12_01_0011
Revises: 2026_11_30_0010
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_01_0011"
down_revision = "2026_11_30_0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("011_coverage_audiences.sql")


def downgrade() -> None:
    apply_sql_file("011_coverage_audiences.down.sql")
