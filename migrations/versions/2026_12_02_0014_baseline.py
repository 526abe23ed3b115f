"""Baseline: the schema as revisions 0001 to 0014 left it (sql/014_baseline.sql), then the functions.

Those fourteen revisions were squashed into this one, under the id of the last, so a database at
2026_12_02_0014 continues from here; one at an earlier revision is upgraded by a docschat that
still carries them first (design/sql-layout.md). Functions and their triggers are not versioned
here: they live once each in sql/functions/, applied now and after every upgrade that changes them.

Revision ID: 2026_12_02_0014
Revises:
"""

from migrations.sqlfile import apply_function_files, apply_sql_file, drop_function_files

revision = "2026_12_02_0014"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("014_baseline.sql")
    # Triggers come with their functions: later revisions may need them. Unchecked: a function may
    # name a column a later revision adds (docs_chat_gap.outcome, 0018); the step at head checks.
    apply_function_files(force=True, check_bodies=False)


def downgrade() -> None:
    drop_function_files()
    apply_sql_file("014_baseline.down.sql")
