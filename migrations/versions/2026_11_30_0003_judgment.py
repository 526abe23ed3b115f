"""Judgment: docs_term_coverage (confidence evidence) and docs_chat_gap (unanswered questions).

Revision ID: 2026_11_30_0003
Revises: 2026_11_30_0005
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0003"
down_revision = "2026_11_30_0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("003_judgment.sql")


def downgrade() -> None:
    apply_sql_file("003_judgment.down.sql")
