"""Errors that carry a message meant for a person: the CLI prints them on one line, no traceback."""


class DocschatError(Exception):
    """A failure with a clear, one-line explanation of what was wrong."""


class ConfigError(DocschatError):
    """A setting has a value that cannot work."""


class DatabaseError(DocschatError):
    """The database cannot be reached or lacks something docschat needs."""


class EmbeddingError(DocschatError):
    """The embedding provider failed (bad key, quota, network) after its retries."""


class EmbeddingInputRefusedError(EmbeddingError):
    """The provider refused the texts themselves (HTTP 400 or 413, not about the key): most often
    one is longer than its model takes, and the server says so instead of truncating."""


def describe_error(exc: BaseException) -> str:
    """One line for a person: a DocschatError's own message, anything else with its type in front
    (a bare "list index out of range" says nothing about where)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text if isinstance(exc, DocschatError) and text else f"{type(exc).__name__}: {text}".rstrip(": ")
