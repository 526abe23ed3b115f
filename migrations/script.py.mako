"""${message}

Tables, indexes and data only: functions and their triggers live in sql/functions/ and are applied
after the upgrade reaches head (design/sql-layout.md). A downgrade that leaves a function reading a
column it drops restores, in its .down.sql, the definition the older release needs.

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
"""

from migrations.sqlfile import apply_sql_file

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("")


def downgrade() -> None:
    apply_sql_file("")
