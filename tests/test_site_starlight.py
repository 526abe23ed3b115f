"""An Astro Starlight site (app/corpus/site_starlight.py): its pages are the docs collection's
(`src/content/docs/`, no `_` name, no draft), published at their slugged path or front matter
`slug`, those its search leaves out (`pagefind: false`, the 404 page) not indexed, each placed under
its sidebar's groups (a locale's translated labels); Starlight's components show what their HTML
shows (`<Badge text>`, `<LinkCard description>`, `<Code code title>`, `<Aside>` as a callout), and
a code block its Expressive Code `title="…"`.

tests/data/site-nav/starlight is a small Starlight project; starlight.shown.json is what its real
build shows (scripts/record_starlight_site.py: @astrojs/starlight 0.41.7, astro 7.1.6, Chromium)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files
from app.corpus.site import FRONT_MATTER, HIDDEN, NOT_BUILT, read_site
from app.corpus.sources import Source
from tests.helpers import commit_all, git

SITE = Path(__file__).parent / "data" / "site-nav" / "starlight"
RECORDED = json.loads((SITE.parent / "starlight.shown.json").read_text())


def _composed(tmp_path: Path):
    repo = tmp_path / "repo"
    shutil.copytree(SITE, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())


def test_the_pages_are_those_the_build_publishes_and_searches(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    # The default locale's reader searches its own language only (Pagefind indexes each page under
    # its <html lang>): the `fr` pages are built and searched by a French reader, not indexed.
    searched = {name for name, page in RECORDED["pages"].items()
                if page["built"] and page["searchable"] and not page["url"].startswith("/fr/")}
    assert sorted(page.path for page in result.pages) == sorted(searched)
    excluded = dict(result.excluded)
    french = [name for name, page in RECORDED["pages"].items() if page.get("url", "").startswith("/fr/")]
    assert french and all(excluded[name].kind == HIDDEN for name in french)
    assert excluded["README.md"].kind == NOT_BUILT
    assert excluded["src/content/docs/guides/drafted.md"].kind == FRONT_MATTER
    assert excluded["src/content/docs/guides/unsearched.md"].kind == FRONT_MATTER
    assert excluded["src/content/docs/404.md"].kind == FRONT_MATTER  # built, but not in the search
    assert result.warnings == []


def test_each_page_is_linked_at_its_url_with_its_headings_ids(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        recorded = RECORDED["pages"][page.path]
        hrefs = {chunk.href.partition("#") for chunk in result.chunks if chunk.page == page.path}
        assert {href for href, _, _ in hrefs} == {recorded["url"].rstrip("/") or "/"}, page.path
        assert {anchor for _, _, anchor in hrefs} - {""} <= set(recorded["heading_ids"]), page.path


def test_each_page_shows_what_the_build_shows(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        recorded = RECORDED["pages"][page.path]
        indexed = " ".join(chunk.embed_text for chunk in result.chunks if chunk.page == page.path)
        assert [m for m in recorded["shown"] if m not in indexed] == [], page.path
        assert [m for m in recorded["hidden"] if m in indexed] == [], page.path


def test_each_page_stands_under_its_sidebar_groups(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    for page in result.pages:
        url = RECORDED["pages"][page.path]["url"]
        sidebar = RECORDED["sidebars"]["fr/" if url.startswith("/fr/") else ""]
        groups = next((tuple(entry[:-1]) for entry in sidebar if entry[-1] == url), ())
        assert page.place == groups, page.path


def test_a_config_without_starlight_is_no_starlight_site() -> None:
    files = {"astro.config.mjs": "import { defineConfig } from 'astro/config'\nexport default defineConfig({})\n",
             "src/content/docs/a.md": "# A\n"}
    assert read_site(files).framework == "files"


def test_a_sidebar_written_as_code_is_not_read_with_a_warning() -> None:
    files = {"astro.config.mjs": "import starlight from '@astrojs/starlight'\nconst items = []\n"
                                 "export default { integrations: [starlight({ title: 'x', sidebar: items })] }\n",
             "src/content/docs/Guides/A Page.md": "---\ntitle: A\n---\n\ntext\n"}
    site = read_site(files)
    assert site.framework == "starlight" and any("sidebar" in warning for warning in site.warnings)
    result = compose_files(files, Settings())
    assert [chunk.href for chunk in result.chunks] == ["/docs/guides/a-page"]


def test_an_aside_is_a_callout_as_the_directive_is(tmp_path: Path) -> None:
    result = _composed(tmp_path)
    text = "\n".join(chunk.text for chunk in result.chunks if chunk.page == "src/content/docs/reference/components.mdx")
    assert ":::danger marker-aside-title\nmarker-aside-body\n:::" in text
    assert ":::note\nmarker-aside-default\n:::" in text


def test_starlights_rules_are_for_its_own_components_only() -> None:
    """A `<Badge text>` that is not Starlight's (a Mintlify page's) shows its children, as before."""
    files = {"astro.config.mjs": "import starlight from '@astrojs/starlight'\nexport default {}\n",
             "src/content/docs/a.mdx": "---\ntitle: A\n---\n\n<Badge text=\"attribute-text\">child-text</Badge>\n"}
    text = " ".join(chunk.text for chunk in compose_files(files, Settings()).chunks)
    assert "child-text" in text and "attribute-text" not in text
