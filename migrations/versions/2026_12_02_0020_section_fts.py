"""The full-text leg's narrow table: docs_section_fts (id, audiences, search_vector), filled from
docs_section and kept equal to it by statement triggers (sql/functions/docs_section_fts_sync.sql),
so the leg's candidates cost few, dense pages (design/fulltext-leg.md).

Tables, indexes and data only: functions and their triggers live in sql/functions/ and are applied
after the upgrade reaches head (design/sql-layout.md). The downgrade drops the table, its triggers
and their functions, and restores the leg's functions as 2026_12_02_0018 had them.

Revision ID: 2026_12_02_0020
Revises: 2026_12_02_0018
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_02_0020"
down_revision = "2026_12_02_0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("020_section_fts.sql")


def downgrade() -> None:
    apply_sql_file("020_section_fts.down.sql")
