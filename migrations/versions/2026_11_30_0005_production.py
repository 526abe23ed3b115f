"""Least privilege: no grants to anon/authenticated; docs_grant_app_role() for the app's own role.

Revision ID: 2026_11_30_0005
Revises: 2026_11_30_0009
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_11_30_0005"
down_revision = "2026_11_30_0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("005_production.sql")


def downgrade() -> None:
    apply_sql_file("005_production.down.sql")
