"""The `docschat` command line: one module per command group, registered on the root group `main`.

    base.py      the root group (known errors → one line, exit 1), output helpers, the database
    options.py   --repo/--branch/--docs-dir, --audience/--public-only, --mode, --since
    database.py  db upgrade|downgrade|grant|stop|status, sql
    indexing.py  compose, sync, status, index clear
    search.py    search, eval
    reports.py   gaps, feedback
    insights.py  insights
    review.py    check
    chat.py      serve, ask
    demo.py      demo

Imports are at module level, except the few whose import is slow (alembic, google.genai, litestar):
those stay inside the commands that need them, so that `docschat --help` does not load them.
"""

from app.cli import chat, database, demo, indexing, insights, reports, review, search  # noqa: F401 - registers the commands
from app.cli.base import main

__all__ = ["main"]
