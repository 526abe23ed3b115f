"""Resolving and describing the database URL."""

from __future__ import annotations

from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

from app.config import Settings
from app.errors import ConfigError


def _query_without_password(query: str) -> tuple[str, str | None]:
    """A URL's query string without its `password=` parameters (libpq takes one there too), the
    rest byte for byte as written (re-encoded, `%20` became `+`, which libpq does not decode), and
    the password (the last one given, as libpq reads them)."""
    kept, password = [], None
    for item in query.split("&"):
        name, _, value = item.partition("=")
        if unquote(name) == "password":
            password = unquote(value)
        elif item:
            kept.append(item)
    return "&".join(kept), password


def _unsplit(parts: SplitResult) -> str:
    """urlunsplit, keeping the `//` of a URL with no host (`postgresql:///db?host=/run/pg`)."""
    if parts.netloc:
        return urlunsplit(parts)
    return (f"{parts.scheme}://{parts.path}" + (f"?{parts.query}" if parts.query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))


def redact_url(url: str) -> str:
    """The URL with its password (`user:password@` or `?password=`) replaced, safe to print or log."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
    query, in_query = _query_without_password(parts.query)
    if in_query is not None:
        parts = parts._replace(query="&".join(filter(None, [query, "password=***"])))
    return _unsplit(parts) if parts != urlsplit(url) else url


def split_password(url: str) -> tuple[str, str | None]:
    """The URL without its password, and the password (decoded): for a client that takes it from
    PGPASSWORD, so it is not on a command line that `ps` shows."""
    parts = urlsplit(url)
    password = unquote(parts.password) if parts.password else None
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", "@", 1))
    query, in_query = _query_without_password(parts.query)
    if in_query is not None:
        parts, password = parts._replace(query=query), password or in_query
    return (_unsplit(parts) if password is not None else url), password


def check_postgres_url(url: str, setting: str = "DATABASE_URL") -> str:
    """Reject a URL that is plainly not a Postgres one, naming what is wrong."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ConfigError(f"{setting} is not a valid URL: {exc}") from None
    if parts.scheme not in ("postgresql", "postgres", "postgresql+asyncpg"):
        raise ConfigError(
            f"{setting} must start with postgresql:// (got scheme {parts.scheme or 'none'!r} in {redact_url(url)})"
        )
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def resolve_database_url(settings: Settings) -> str:
    """DATABASE_URL when set; else the embedded server, started or reused."""
    if settings.database_url:
        return check_postgres_url(settings.database_url)
    from app.db.embedded import ensure_embedded_server

    return ensure_embedded_server(settings.docschat_home)
