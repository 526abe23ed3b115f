"""Feedback on answers: 👍/👎 and a comment per assistant message (docs_chat_feedback).

Revision ID: 2026_12_02_0014
Revises: 2026_12_01_0013
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_02_0014"
down_revision = "2026_12_01_0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("014_feedback.sql")


def downgrade() -> None:
    apply_sql_file("014_feedback.down.sql")
