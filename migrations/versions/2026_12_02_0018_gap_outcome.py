"""Gaps say what happened: refused as off the docs' topic, refused because the docs do not say,
answered in part, or answered with low confidence (issue 31).

`docs_chat_gap.outcome` is one of refused_offtopic, refused_indomain, partly, answered; null on a
gap recorded before this revision (then the outcome is read from `refused` and the confidence, as
before). record_docs_chat_gap takes the outcome as a sixth argument: the five-argument function
is dropped here, since a second overload would make every five-argument call ambiguous, and the
repeatable step creates the new one (sql/functions/docs_chat_gap.sql). The downgrade drops the new
function and forgets that file's checksum, so the docschat that runs next applies its own.

Revision ID: 2026_12_02_0018
Revises: 2026_12_02_0014
"""

from alembic import op

revision = "2026_12_02_0018"
down_revision = "2026_12_02_0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("alter table public.docs_chat_gap add column outcome text"
               " check (outcome in ('refused_offtopic', 'refused_indomain', 'partly', 'answered'))")
    op.execute("comment on column public.docs_chat_gap.outcome is 'of the latest occurrence: refused_offtopic"
               " (below the answer floor), refused_indomain (the answer check or verifier: the docs do not say),"
               " partly, answered (with low confidence); null when recorded before 2026_12_02_0018'")
    op.execute("drop function if exists public.record_docs_chat_gap(text, text, real, boolean, integer)")


def downgrade() -> None:
    op.execute("drop function if exists public.record_docs_chat_gap(text, text, real, boolean, integer, text)")
    op.execute("delete from public.docschat_sql_file where name = 'docs_chat_gap.sql'")
    op.execute("alter table public.docs_chat_gap drop column outcome")
