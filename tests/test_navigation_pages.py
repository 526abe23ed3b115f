"""Navigation pages (a list of links, little prose) are not listed as Relevant Guides unless the
question is about them: measured on the real sections of the demo's docs and the shared corpora,
page selection on its own, and the demo's questions with the offline model."""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path

import pytest

from app.config import Settings, get_settings
from app.corpus.compose import compose_files
from app.search.fusion import FusedHit
from app.search.hits import Hit
from app.search.pages import is_navigation, navigation_by_lines, select_pages
from tests.conftest import REPO_ROOT, SHARED


@cache
def sections(root: Path) -> dict[str, str]:
    """Chunk id → text, composed as the sync composes the folder."""
    files = {str(p.relative_to(root)): p.read_text(encoding="utf-8", errors="replace")
             for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".md", ".mdx")}
    return {c.id: c.text for c in compose_files(files, Settings(docs_default_audience="public")).chunks}


def corpus(name: str) -> dict[str, str]:
    root = SHARED / "corpora" / name
    if not root.is_dir():
        pytest.skip(f"../shared/corpora/{name} is not present")
    return sections(root)


def test_the_demo_docs_have_one_navigation_section_the_index_pages_links() -> None:
    demo = sections(REPO_ROOT / "docs")
    assert [id_ for id_, text in demo.items() if is_navigation(text)] == ["docs:index.mdx#where-to-go-next"]


def test_navigation_sections_of_the_shared_corpora() -> None:
    ray = corpus("ray-docs")
    # Lists of links to elsewhere: talks, papers, further guides.
    for id_ in ("docs:ray-overview/getting-started.md#papers", "docs:ray-observability/getting-started.md#resources",
                "docs:serve/advanced-guides/index.md~2"):
        assert is_navigation(ray[id_]), id_
    # A page's own table of contents ("This guide shows you how to:" and anchors of the page)
    # opens the page the question is about: not navigation.
    for id_ in ("docs:data/iterating-over-data.md", "docs:data/inspecting-data.md", "docs:data/transforming-data.md"):
        assert not is_navigation(ray[id_]), id_
    # A table of download links among the lines of its section's text (the answer to "where are
    # the nightly wheels"): links on fewer than two thirds of its lines.
    assert not is_navigation(ray["docs:ray-overview/installation.md#daily-releases-nightlies~3"])
    mintlify = corpus("mintlify-docs")
    for id_ in ("docs:migration/gitbook.mdx#gitbook-references", "docs:editor/settings.mdx#related"):
        assert is_navigation(mintlify[id_]), id_
    # Steps with a link in each (prose around them), images, and an example of link syntax are not.
    for id_ in ("docs:deploy/route53-cloudfront.mdx#create-cloudfront-distribution",
                "docs:changelog.mdx#web-editor-2", "docs:create/text.mdx#internal-links"):
        assert not is_navigation(mintlify[id_]), id_
    assert not any(is_navigation(text) for text in corpus("claude-docs").values())


def _fused(id_: str, page: str, title: str, heading: str, content: str, score: float) -> FusedHit:
    hit = Hit(id_, "docs", page, title, heading, title, f"/docs/{page}#{id_}", content, ("public",), 0.0)
    return FusedHit(hit, score, {"keyword": 1})


LINKS = "- [Install and run the demo](/docs/install)\n- [Embed the chat widget on your site](/docs/guides/widget)\n"


def test_a_page_found_through_its_list_of_links_is_not_a_guide() -> None:
    widget = _fused("embed", "guides/widget.mdx", "Embed the chat widget", "Embed",
                    "Add this script tag to every page of your docs site.", 1.0)
    index = _fused("next", "index.mdx", "docschat", "Where to go next", LINKS, 0.8)
    sync = _fused("run", "guides/sync.mdx", "Sync", "Run", "Run docschat sync after a merge.", 0.5)
    fused = [widget, index, sync]
    pages = select_pages(fused, "How do I embed the widget on my site?", score_ratio=0.3,
                         agreed=frozenset({"docs:index.mdx"}))
    choice = next(p for p in pages if p.page == "index.mdx")
    assert not choice.kept and choice.navigation and choice.demoted
    assert "navigation" in choice.reason and choice.score == pytest.approx(0.8 * 0.25)
    assert [p.title for p in pages if p.kept] == ["Embed the chat widget", "Sync"]
    # Its title is the product's name, which any question may say: that is not asking for the list.
    named = select_pages(fused, "How do I embed the docschat widget on my site?", score_ratio=0.3)
    assert not next(p for p in named if p.page == "index.mdx").kept
    # A question about the list itself (its heading) gets it.
    asked = select_pages(fused, "Where do I go next?", score_ratio=0.3)
    assert next(p for p in asked if p.page == "index.mdx").kept
    # A page whose prose section is its best match is listed as before, links further down or not.
    how = _fused("how", "index.mdx", "docschat", "How it works", "Pages are read from git and cut into sections.", 0.8)
    by_prose = select_pages([widget, how, index, sync], "How do I embed the widget on my site?", score_ratio=0.3)
    assert next(p for p in by_prose if p.page == "index.mdx").kept
    # Its opening matching a little better than its list does not make it a guide: the page is
    # judged by its excerpt (its best section), here the list, which its score is made of too.
    opening = _fused("intro", "index.mdx", "docschat", "", "docschat answers questions about your docs.", 0.45)
    listed = _fused("next", "index.mdx", "docschat", "Where to go next", LINKS, 0.4)
    by_opening = select_pages([widget, sync, opening, listed], "How do I embed the widget on my site?", score_ratio=0.3)
    choice = next(p for p in by_opening if p.page == "index.mdx")
    assert choice.excerpt == LINKS and choice.navigation and not choice.kept
    assert choice.score == pytest.approx((0.45 + 0.4) * 0.25)


IN_DOMAIN = [
    "How do I embed the widget on my site?",
    "How do I embed the widget?",
    "What does docschat store about me?",
    "How do I keep the index in sync from GitHub Actions?",
    "Can I call the search functions from psql?",
    "How do I use my own Postgres?",
    "How do I turn on the admin console?",
]


def test_the_demo_lists_its_index_page_only_when_asked_about_it(clean_db, monkeypatch) -> None:
    """The project's own docs/ as the demo syncs them, with the model the demo uses: the index page
    (a title, how it works, and a list of links) was a Relevant Guide for 5 of these 7 questions."""
    from app import PROJECT_ROOT
    from app.corpus.compose import DocsSource
    from app.db.pool import create_pool
    from app.embeddings.local import local_model_installed
    from app.search.retrieve import build_retriever
    from tests.helpers import sync_corpus

    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("the project's docs are read through git; no .git here")
    if not local_model_installed():
        pytest.skip("the offline model (the demo's) is not installed")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local")
    get_settings.cache_clear()

    async def go() -> dict[str, list[str]]:
        pool = await create_pool(clean_db)
        try:
            settings = get_settings()
            retriever = build_retriever(pool, settings)
            await sync_corpus(pool, DocsSource(PROJECT_ROOT, "HEAD", "docs"), settings, retriever.embedder.provider)
            return {q: [p.page for p in (await retriever.retrieve(q, audiences=["public"])).pages]
                    for q in [*IN_DOMAIN, "What is docschat?", "Where do I go next?"]}
        finally:
            await pool.close()

    pages = asyncio.run(go())
    assert [q for q in IN_DOMAIN if "index.mdx" in pages[q]] == [], pages
    assert pages["How do I embed the widget on my site?"][0] == "guides/widget.mdx"
    assert "index.mdx" in pages["What is docschat?"] and "index.mdx" in pages["Where do I go next?"]


def test_the_early_return_of_is_navigation_changes_no_answer() -> None:
    """is_navigation returns early when the text holds fewer than two of "](", "]:", "http" (every
    outbound link holds one), or fewer than two lines holding one (at 100k most sections are one line; the fusion stage's main cost was the full rule on every candidate
    page). It must agree with the rule itself: on every section of the shared corpora, and on the
    least a navigation section can be, two links of each kind."""
    for name in ("ray-docs", "mintlify-docs", "claude-docs"):
        texts = corpus(name).values()
        assert [is_navigation(t) for t in texts] == [navigation_by_lines(t) for t in texts], name
    for text in ("- [Guide](/docs/guide)\n- [Setup](/docs/setup)\n",
                 "- <https://example.com/a>\n- <https://example.com/b>\n",
                 "- https://example.com/a\n- https://example.com/b\n",
                 "[guide]: /docs/guide\n[setup]: /docs/setup\n",
                 # Lines as the section's blocks cut them: around a fence, and ended by a lone \r.
                 "- [Guide](/docs/guide)\n```\ncode\n```\n- [Setup](/docs/setup)\n",
                 "- [Guide](/docs/guide)\r- [Setup](/docs/setup)\r"):
        assert is_navigation(text) and navigation_by_lines(text), text
    # It also returns early when fewer than two lines hold a marker (two links on one line make
    # one link line; the bench's 100k sections are one line each): not navigation either way.
    for text in ("See [Guide](/docs/guide) and [Setup](/docs/setup) first.",
                 "- [Guide](/docs/guide) and https://example.com/a\n```\n[x](/x)\nhttp://y\n```\nprose\n"):
        assert not is_navigation(text) and not navigation_by_lines(text), text
