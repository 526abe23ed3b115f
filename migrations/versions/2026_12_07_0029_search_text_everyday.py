"""The keyword leg's typo step is told the question's everyday words (issues 45/46 retrieval).

docs_search_text takes them as a fourth argument, everyday_words (sql/functions/docs_search_text.sql):
such a word the docs do not use is dropped, never corrected to another. The three-argument function
is dropped here, since a second overload would make every call with two or three arguments
ambiguous, and the repeatable step creates the new one (sql/029_search_text_everyday.sql). The
downgrade makes the three-argument function again, as the revisions below it call it, and forgets
that file's checksum, so the docschat that runs next applies its own (as 2026_12_02_0018).

Revision ID: 2026_12_07_0029
Revises: 2026_12_06_0028
"""

from migrations.sqlfile import apply_sql_file

revision = "2026_12_07_0029"
down_revision = "2026_12_06_0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_sql_file("029_search_text_everyday.sql")


def downgrade() -> None:
    apply_sql_file("029_search_text_everyday.down.sql")
