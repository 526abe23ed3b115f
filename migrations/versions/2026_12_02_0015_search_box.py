"""The search box: docs_search_box, pages with their best sections for a query being typed.

Revision ID: 2026_12_02_0015
Revises: 2026_12_02_0014
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_02_0015"
down_revision = "2026_12_02_0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("015_search_box.sql")


def downgrade() -> None:
    apply_sql_file("015_search_box.down.sql")
