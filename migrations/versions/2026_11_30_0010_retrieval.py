"""Retrieval quality: two-letter words (IP, M1, S3) are full-text search terms.

Revision ID: 2026_11_30_0010
Revises: 2026_11_30_0008
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0010"
down_revision = "2026_11_30_0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("010_retrieval.sql")


def downgrade() -> None:
    apply_sql_file("010_retrieval.down.sql")
