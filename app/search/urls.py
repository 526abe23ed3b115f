"""Links as the reader follows them: hrefs made absolute under the docs' base URL, compared without
the trailing slash."""

from __future__ import annotations

import re

from app.search.chunk_text import chunk_blocks

# A Markdown link to a path of the docs site, `](/guides/x#y)`: compose writes a link to another
# page so when the source has no base URL of its own, as it writes hrefs (and Mintlify's authors
# write theirs so); `//host` is an address of another site.
_SITE_LINK = re.compile(r"\]\((/(?!/)[^)\s]*)\)")


def normalize_url(url: str) -> str:
    """URLs compare without a trailing slash, before the anchor or at the very end."""
    base, hash_, anchor = url.strip().rstrip("/").partition("#")
    return base.rstrip("/") + hash_ + anchor


def absolute_url(base_url: str, href: str) -> str:
    """`href` under `base_url`; an href that is already absolute (a source with its own base URL) as it is."""
    if href.startswith(("http://", "https://")):
        return normalize_url(href)
    return normalize_url(base_url.rstrip("/") + "/" + href.lstrip("/"))


def with_absolute_links(text: str, base_url: str) -> str:
    """`text` (a section's Markdown) with each link to a path of the docs site under `base_url`, as
    its href is: the reader follows it from the widget, `docschat ask` or an MCP client, none of
    which is the docs site. Code blocks stay as written (chunk_blocks: the reader's own blocks)."""
    if not base_url or "](/" not in text:
        return text
    for block in chunk_blocks(text):
        if block.kind != "code" and "](/" in block.text:
            text = text.replace(block.text, _SITE_LINK.sub(lambda m: f"]({absolute_url(base_url, m[1])})", block.text), 1)
    return text
