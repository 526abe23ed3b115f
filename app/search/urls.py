"""Links as the reader follows them: hrefs made absolute under the docs' base URL, compared without
the trailing slash."""

from __future__ import annotations


def normalize_url(url: str) -> str:
    """URLs compare without a trailing slash, before the anchor or at the very end."""
    base, hash_, anchor = url.strip().rstrip("/").partition("#")
    return base.rstrip("/") + hash_ + anchor


def absolute_url(base_url: str, href: str) -> str:
    """`href` under `base_url`; an href that is already absolute (a source with its own base URL) as it is."""
    if href.startswith(("http://", "https://")):
        return normalize_url(href)
    return normalize_url(base_url.rstrip("/") + "/" + href.lstrip("/"))
