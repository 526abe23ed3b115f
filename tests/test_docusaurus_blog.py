"""A Docusaurus blog post is linked where the site publishes it: a post named by its date under that
date (`blog/2016-03-11-perf.md` → `/blog/2016/03/11/perf`), a folder before the date after it,
an undated post at its path, a `slug` of its own in place of either, all under the blog's
`routeBasePath` (app/corpus/site_docusaurus_blog.py). tests/data/site-nav/docusaurus-blog is a
small site whose blog is published at `news`; docusaurus-blog.built.json is where its real build
publishes each post (scripts/record_docusaurus_blog_site.py, Docusaurus 3.10.2). Before, a post
kept its file's path (`/blog/2016-03-11-perf`), a URL the site never serves: found on Jest's blog."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_corpus
from app.corpus.site_docusaurus_blog import blog_post_slug
from app.corpus.sources import Source
from tests.helpers import commit_all, git

DATA = Path(__file__).parent / "data" / "site-nav"
BUILT = json.loads((DATA / "docusaurus-blog.built.json").read_text())["files"]
POSTS = {path: entry for path, entry in BUILT.items() if "permalink" in entry}


def test_the_recording_holds_every_kind_of_post() -> None:
    assert len(POSTS) == 7
    for entry in POSTS.values():  # the permalink is a page that shows the post
        assert entry["permalink"] in entry["urls"] or entry["permalink"] + "/" in entry["urls"]


def test_each_post_is_linked_at_its_permalink(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(DATA / "docusaurus-blog", repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    result = compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())
    hrefs = {chunk.page: chunk.href.partition("#")[0] for chunk in result.chunks}
    assert {path: hrefs.get(path) for path in POSTS} == {path: entry["permalink"].rstrip("/") for path, entry in POSTS.items()}
    assert hrefs["docs/intro.md"] == "/docs/intro"


@pytest.mark.parametrize(("relative", "front", "slug"), [
    ("2016-03-11-perf.md", {}, "/2016/03/11/perf"),
    ("2021-03-09-upgrade/index.mdx", {}, "/2021/03/09/upgrade"),
    ("releases/2018-02-02-r1.md", {}, "/2018/02/02/releases/r1"),
    ("2020-1-5-x.md", {}, "/2020/1/5/x"),
    ("notes/plain.md", {}, "/notes/plain"),
    ("2016-03-11-perf.md", {"slug": "elsewhere"}, "elsewhere"),
    ("2016-03-11-perf.md", {"slug": ""}, "/2016/03/11/perf"),  # an empty slug is no slug
    ("2016-03-11-perf.md", {"slug": ["not", "a", "string"]}, "/2016/03/11/perf"),
])
def test_blog_post_slug(relative: str, front: dict, slug: str) -> None:
    assert blog_post_slug(relative, front) == slug
