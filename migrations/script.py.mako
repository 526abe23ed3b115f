"""${message}

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
