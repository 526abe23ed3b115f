"""Resolving and describing the database URL."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit, urlunsplit

from app.config import Settings
from app.errors import ConfigError


def redact_url(url: str) -> str:
    """The URL with its password replaced, safe to print or log."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def split_password(url: str) -> tuple[str, str | None]:
    """The URL without its password, and the password (decoded): for a client that takes it from
    PGPASSWORD, so it is not on a command line that `ps` shows."""
    parts = urlsplit(url)
    if not parts.password:
        return url, None
    netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.password)


def check_postgres_url(url: str) -> str:
    """Reject a URL that is plainly not a Postgres one, naming what is wrong."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL is not a valid URL: {exc}") from None
    if parts.scheme not in ("postgresql", "postgres", "postgresql+asyncpg"):
        raise ConfigError(
            f"DATABASE_URL must start with postgresql:// (got scheme {parts.scheme or 'none'!r} in {redact_url(url)})"
        )
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def resolve_database_url(settings: Settings) -> str:
    """DATABASE_URL when set; else the embedded server, started or reused."""
    if settings.database_url:
        return check_postgres_url(settings.database_url)
    from app.db.embedded import ensure_embedded_server

    return ensure_embedded_server(settings.docschat_home)
