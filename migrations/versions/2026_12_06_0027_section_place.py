"""Each section's place in its site's navigation (tab › group), stored and read back (issue 46).

docs_section.place and docs_section_stage.place (sql/027_section_place.sql); the page keys are
forgotten so that the next sync writes the place of the rows already there.

Revision ID: 2026_12_06_0027
Revises: 2026_12_06_0026
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_06_0027"
down_revision = "2026_12_06_0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("027_section_place.sql")


def downgrade() -> None:
    apply_sql_file("027_section_place.down.sql")
