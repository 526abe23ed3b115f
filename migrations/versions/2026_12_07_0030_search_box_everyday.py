"""The search box's typo step is told the query's everyday words, as the keyword leg's is (0029).

docs_search_box takes them as a last argument, everyday_words (sql/functions/docs_search_box.sql),
and passes them to docs_search_text: such a word the docs do not use is dropped, never corrected to
another ("taken" is no typo of "token"). The sixteen-argument function is dropped here, since a
second overload would make every call without the new argument ambiguous, and the repeatable step
creates the new one (sql/030_search_box_everyday.sql). The downgrade makes the sixteen-argument
function again and forgets that file's checksum, so the docschat that runs next applies its own
(as 2026_12_07_0029).

Revision ID: 2026_12_07_0030
Revises: 2026_12_07_0029
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_07_0030"
down_revision = "2026_12_07_0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("030_search_box_everyday.sql")


def downgrade() -> None:
    apply_sql_file("030_search_box_everyday.down.sql")
