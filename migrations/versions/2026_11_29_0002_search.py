"""Search: lexeme statistics, search_docs_sections (full-text) and match_docs_sections (cosine).

Revision ID: 2026_11_29_0002
Revises: 2026_11_29_0001
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_29_0002"
down_revision = "2026_11_29_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("002_search.sql")


def downgrade() -> None:
    apply_sql_file("002_search.down.sql")
