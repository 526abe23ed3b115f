"""Insights (issue 48): daily rollup tables written as events happen.

Questions and their outcomes, 👍/👎, requests per door, cited pages, queries that found nothing,
and near-duplicate questions grouped by embedding, one row per day (sql/026_insights.sql). The
functions that write and read them are in sql/functions/docs_insights.sql.

Revision ID: 2026_12_06_0026
Revises: 2026_12_03_0025
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_06_0026"
down_revision = "2026_12_03_0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("026_insights.sql")


def downgrade() -> None:
    apply_sql_file("026_insights.down.sql")
