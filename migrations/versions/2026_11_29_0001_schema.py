"""Schema: docs_section, docs_query_embedding, chat sessions and messages, rate-limit windows.

Revision ID: 2026_11_29_0001
Revises:
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_29_0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("001_schema.sql")


def downgrade() -> None:
    apply_sql_file("001_schema.down.sql")
