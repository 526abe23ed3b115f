"""Hardening: the shared IP-hash secret (docs_app_secret) and its get-or-create function.

Revision ID: 2026_11_30_0009
Revises: 2026_11_30_0004
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0009"
down_revision = "2026_11_30_0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("009_hardening.sql")


def downgrade() -> None:
    apply_sql_file("009_hardening.down.sql")
