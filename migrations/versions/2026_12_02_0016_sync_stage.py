"""Batched sync: staged generations (docs_sync_generation, docs_section_stage) and the index version.

A sync writes its rows into a staged generation batch by batch and applies it in one short
transaction (public.docs_sync_switch); docs_index_version tells it whether another writer changed
the index meanwhile (design/scale-sync.md).

Revision ID: 2026_12_02_0016
Revises: 2026_12_02_0014
"""

from migrations.sqlfile import apply_function_files, apply_sql_file

revision = "2026_12_02_0016"
down_revision = "2026_12_02_0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("016_sync_stage.sql")
    apply_function_files(force=True, check_bodies=False)  # the version trigger needs its table; head checks


def downgrade() -> None:
    apply_sql_file("016_sync_stage.down.sql")
