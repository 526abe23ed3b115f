"""The client module."""


def connect(url: str) -> None:
    """Open a connection to url. marker-autodoc-generated-docstring"""


def close() -> None:
    """Close the connection. marker-autodoc-generated-close"""
