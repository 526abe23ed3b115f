"""The vector leg's HNSW index on embedding::halfvec(768) (halfvec_cosine_ops), same name: recall
kept at 20k, 100k and 1M chunks, half the index, a shorter build (design/vector-index.md, issue 34).
The upgrade rebuilds the index (at 1M chunks ~15 min with 7 GB maintenance_work_mem; writers wait).

Revision ID: 2026_12_02_0023
Revises: 2026_12_02_0022
"""

from migrations.sqlfile import apply_function_files, apply_sql_file

revision = "2026_12_02_0023"
down_revision = "2026_12_02_0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("023_halfvec_index.sql")
    apply_function_files(force=True, check_bodies=False)  # match_docs_sections orders by the index's expression


def downgrade() -> None:
    apply_sql_file("023_halfvec_index.down.sql")
