"""Page-level skip: the key of what composing each page read (docs_page_key) and its staged copy.

A no-op re-sync skips composing a page whose key is unchanged (design/page-keys.md).

Revision ID: 2026_12_02_0021
Revises: 2026_12_02_0020
"""

from migrations.sqlfile import apply_function_files, apply_sql_file

revision = "2026_12_02_0021"
down_revision = "2026_12_02_0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("021_page_key.sql")
    apply_function_files(force=True, check_bodies=False)  # docs_page_key_switch needs its tables


def downgrade() -> None:
    apply_sql_file("021_page_key.down.sql")
