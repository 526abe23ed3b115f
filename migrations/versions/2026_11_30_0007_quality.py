"""Retrieval quality: docs_search_text (typo-corrected or dropped words), the breadcrumb in search_vector.

Revision ID: 2026_11_30_0007
Revises: 2026_11_30_0006
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0007"
down_revision = "2026_11_30_0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("007_quality.sql")


def downgrade() -> None:
    apply_sql_file("007_quality.down.sql")
