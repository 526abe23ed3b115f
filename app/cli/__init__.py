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

A command's module is imported when the command runs (base.COMMAND_MODULES): `docschat ask`
beside a server imports chat.py alone, not the indexing and search code. Within a module, the few
imports that are slow (alembic, google.genai, litestar, uvicorn) stay inside the commands that
need them, so that `docschat --help` does not load them.
"""

from app.cli.base import main

__all__ = ["main"]
