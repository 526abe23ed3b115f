"""The full-text leg's head index: the title and heading terms of docs_section_fts, so that a
question of one or two common terms ranks the sections holding them there and reads the others
only when those cannot make the list (design/fulltext-leg.md).

Revision ID: 2026_12_02_0022
Revises: 2026_12_02_0021
"""

from migrations.sqlfile import apply_function_files, apply_sql_file

revision = "2026_12_02_0022"
down_revision = "2026_12_02_0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("022_section_fts_head.sql")
    apply_function_files(force=True, check_bodies=False)  # search_docs_sections reads the index


def downgrade() -> None:
    apply_sql_file("022_section_fts_head.down.sql")
