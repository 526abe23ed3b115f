"""Code hrefs filled when read: docs_source_commit.fill_hrefs says a source's hrefs hold `{commit}`.

A new commit then rewrites no unchanged row of a code source whose link names the commit
(design/commit-in-hrefs.md, issue 34).

Revision ID: 2026_12_03_0025
Revises: 2026_12_02_0023
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_03_0025"
down_revision = "2026_12_02_0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("025_source_commit_href.sql")


def downgrade() -> None:
    apply_sql_file("025_source_commit_href.down.sql")
