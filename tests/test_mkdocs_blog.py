"""Material for MkDocs' blog posts are linked where the blog plugin publishes them
(app/corpus/mkdocs_blog.py): `blog/<yyyy>/<mm>/<dd>/<slug>/`, not their file's path
(`blog/posts/<file>/`, a page the site does not have). tests/data/site-nav/mkdocs-blog (the
defaults) and mkdocs-blog-formats (blog_dir, post_url_format with categories and file,
post_url_date_format, post_slugify_separator) with, beside each, where `mkdocs build` (1.6.1,
mkdocs-material 9.8.2) published each post (scripts/record_mkdocs_blog_site.py)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.compose_result import ComposeResult
from app.corpus.mkdocs_blog import _format_date, post_urls
from app.corpus.sources import Source

DATA = Path(__file__).parent / "data" / "site-nav"


def _composed(site: str) -> tuple[ComposeResult, dict[str, list[str]], dict[str, str], dict[str, str]]:
    """The recorded site composed: the result, the build's URLs by file, docschat's page URLs, and
    the posts' URLs as built."""
    root = DATA / site
    files = {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("*") if p.is_file()}
    built = json.loads((DATA / f"{site}.built.json").read_text())["urls"]
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",),
                                                     url_prefix=""))
    hrefs = {chunk.page: chunk.href.partition("#")[0] for chunk in result.chunks}
    posts = {path: urls[0] for path, urls in built.items() if urls and "/posts/" in path}
    return result, built, hrefs, posts


@pytest.mark.parametrize("site", ["mkdocs-blog", "mkdocs-blog-formats"])
def test_posts_are_linked_where_the_build_publishes_them(site: str) -> None:
    result, _, hrefs, posts = _composed(site)
    assert len(posts) == 5
    assert {path: hrefs[path] + "/" for path in posts} == posts
    assert result.warnings == []


def test_a_folders_meta_file_gives_its_posts_date_slug_categories_and_draft() -> None:
    """mkdocs-blog-meta: with Material's meta plugin, a `.meta.yml` gives the posts of its folder
    their `date` and `slug` (a post's own win), `categories` (added to a post's own) and `draft`,
    as `mkdocs build` published them; the folder's date was not read (the post kept its file's
    path) and its slug and categories not used."""
    result, built, hrefs, posts = _composed("mkdocs-blog-meta")
    assert {path: hrefs[path] + "/" for path in posts} == posts
    assert "docs/blog/posts/drafts/wip.md" not in hrefs and not built["docs/blog/posts/drafts/wip.md"]
    assert result.warnings == []


def test_a_date_pattern_naming_a_month_keeps_the_files_path() -> None:
    """`MMMM` (the month's name) is the site's locale's: not made, the post keeps its path."""
    assert _format_date(date(2024, 1, 5), "yyyy/MM/dd") == "2024/01/05"
    assert _format_date(date(2024, 1, 5), "yy-M-d 'x'") == "24-1-5 x"
    assert _format_date(date(2024, 1, 5), "yyyy/MMMM") is None
    files = {"docs/blog/posts/a.md": "---\ndate: 2024-01-05\n---\n\n# A\n"}
    assert post_urls(files, "docs/", {"post_url_date_format": "MMMM"}, []) == []
    assert post_urls(files, "docs/", {}, []) == [("docs/blog/posts/a.md", "docs/blog/2024/01/05/a.md")]


def test_a_slugify_function_is_not_run() -> None:
    warnings: list[str] = []
    files = {"docs/blog/posts/a.md": "---\ndate: 2024-01-05\n---\n\n# A\n"}
    assert post_urls(files, "docs/", {"post_slugify": "x"}, warnings) == [] and "not run" in warnings[0]
