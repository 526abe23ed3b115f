"""Leases (docs_lease): the sync job's lock as a row with an owner and an expiry, not a session
advisory lock, so that it holds behind a pooler in transaction mode (PgBouncer, Supavisor).

Tables, indexes and data only: functions and their triggers live in sql/functions/ and are applied
after the upgrade reaches head (design/sql-layout.md). A downgrade that leaves a function reading a
column it drops restores, in its .down.sql, the definition the older release needs.

Revision ID: 2026_12_02_0017
Revises: 2026_12_02_0014
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_02_0017"
down_revision = "2026_12_02_0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("017_lease.sql")


def downgrade() -> None:
    apply_sql_file("017_lease.down.sql")
