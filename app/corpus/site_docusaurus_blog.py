"""Where Docusaurus publishes a blog post: its permalink, from its path in the blog folder and its
front matter `slug`, as @docusaurus/plugin-content-blog 3.10.2 computes it (blogUtils.js's
parseBlogFileName and processBlogSourceFile): a post named by its date (`2016-03-11-perf.md`,
`2021-03-09-upgrade/index.md`) is published under that date (`/blog/2016/03/11/perf`), another at
its path without suffix, and a `slug` in its front matter replaces either, under the blog's
`routeBasePath` (default `blog`). tests/test_docusaurus_blog.py compares this with a real build.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

# blogUtils.js's DATE_FILENAME_REGEX, as written there (its `.mdx?` dot matches any character).
_DATE_FILENAME = re.compile(r"^(?P<folder>.*)(?P<date>\d{4}[-/]\d{1,2}[-/]\d{1,2})[-/]?(?P<text>.*?)(?:/index)?.mdx?$")
_SUFFIX = re.compile(r"(?:/index)?\.mdx?$")


def blog_post_slug(relative: str, front: Mapping[str, Any]) -> str:
    """A post's slug under the blog's route, from its path in the blog folder and its front matter."""
    given = front.get("slug")
    if isinstance(given, str) and given:
        return given
    match = _DATE_FILENAME.match(relative)
    if match:
        return f"/{match['date'].replace('-', '/')}/{match['folder']}{match['text']}"
    return "/" + _SUFFIX.sub("", relative)


def blog_post_paths(files: Mapping[str, str], folder: str, route: str) -> list[tuple[str, str]]:
    """Each post of the blog `folder` whose published path differs from its own: (its path, the
    path it is published at, with `.md`, as site.slugs holds them)."""
    from app.corpus.frontmatter import front_matter_data

    prefix = "" if folder in ("", ".") else folder + "/"
    found = []
    for path, content in files.items():
        if not path.startswith(prefix) or not path.endswith((".md", ".mdx")):
            continue
        # normalizeUrl([baseUrl, routeBasePath, slug]): the parts joined, repeated slashes made one.
        slug = blog_post_slug(path[len(prefix):], front_matter_data(content))
        published = posixpath.normpath("/".join(("", route, slug))).lstrip("/")
        url = (published or "index") + ("/index" if slug.endswith("/") and published else "") + ".md"
        if url != path:
            found.append((path, url))
    return found
