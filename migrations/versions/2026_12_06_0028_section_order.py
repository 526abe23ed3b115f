"""Where each section reads, stored: its page's position in the site's navigation, and its own in
its page (issue 46).

docs_section.page_order and section_order, and the same in docs_section_stage
(sql/028_section_order.sql); docs_section_shown returns them. Readers (/docs/<page>, MCP get_page,
/llms.txt, /llms-full.txt, the chat's passages of one page) order by them instead of reading the
page's file and the site's configuration from git when asked.

Two columns, not one ordinal per source: each is decided by what the page key already covers
(design/page-keys.md). The navigation's order is the site's, in every page's key; a section's
position is its page's, in that page's key. A page kept by its key therefore keeps positions that
are still right. One number over the whole source would depend on every other page: a page added
to a site without navigation (ordered by path, with no site configuration in the keys) would shift
the number of every later page while their keys stay, leaving them wrong or tied. A page the
navigation does not list has no page_order (null) and goes by its path after the listed ones, as
the site does.

The page keys are forgotten so that the next sync composes every page and writes the positions of
the rows already there, as a metadata update: nothing is embedded again.

Revision ID: 2026_12_06_0028
Revises: 2026_12_06_0027
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_06_0028"
down_revision = "2026_12_06_0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("028_section_order.sql")


def downgrade() -> None:
    apply_sql_file("028_section_order.down.sql")
