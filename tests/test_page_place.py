"""Each page's place in its site (tab › group, from the site's navigation: app/corpus/site.py) is
stored with its sections and shown where pages are listed: the chat's Relevant Guides, the search
box and MCP (issue 46). tests/data/site-nav/mintlify has two pages titled "Overview", in the groups
Analytics and Storage of the tab Documentation; a second source, plain files, has no navigation
and so no place. Everything runs for real: git, a sync into the test Postgres, the app over HTTP,
the MCP SDK's client."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from app.config import Settings, get_settings
from app.corpus.compose import compose_corpus
from app.corpus.sources import Source
from app.db import migrate
from tests.helpers import (
    commit_all,
    copy_tree_as_repo,
    docschat_in_process,
    git,
    parse_sse,
    sync_configured_sources,
    write_files,
)
from tests.test_mcp import call, http_session

SITE = Path(__file__).parent / "data" / "site-nav" / "mintlify"
BASE = "https://docs.example.com"  # DOCS_BASE_URL: where links lead
ANALYTICS = ["Documentation", "Analytics"]
STORAGE = ["Documentation", "Storage"]
NOTES = {"overview.md": "---\ntitle: Overview\n---\n\nThe team's notes on integrations: none is planned.\n"}
# Every section of the site's pages, as synced (the site's page left out of docs.json are not).
PLACES = {
    "index.mdx": ["Documentation", "Get started"],
    "quickstart.mdx": ["Documentation", "Get started"],
    "components.mdx": ["Documentation", "Get started"],
    "guides/classes.mdx": ["Documentation", "Get started"],
    "integrations/analytics/overview.mdx": ANALYTICS,
    "integrations/analytics/posthog.mdx": ANALYTICS,
    "integrations/storage/overview.mdx": STORAGE,
    "guides/archived.mdx": ["Documentation", "Searchable archive"],
    "guides/deploy.mdx": ["Learn", "Guides", "How-to"],
    # API pages: one whose front matter names an operation, one a navigation entry names (`POST
    # /widgets`), and those a group's `openapi` source generates, in a group by tag.
    "reference/get-widget.mdx": ["API reference", "Endpoints"],
    "api-reference/widgets/create-a-widget.mdx": ["API reference", "Endpoints"],
    "generated/widgets/list-widgets.mdx": ["API reference", "Everything", "Widgets"],
    "generated/widgets/create-a-widget.mdx": ["API reference", "Everything", "Widgets"],
    "generated/widgets/get-a-widget.mdx": ["API reference", "Everything", "Widgets"],
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository holding the Mintlify site (source `docs`) and a plain folder (source `notes`),
    both public, and the docschat.toml naming them (in the test's working folder). Keyword-only."""
    repo = tmp_path / "acme"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shutil.copytree(SITE, repo / "site")
    write_files(repo / "notes", NOTES)
    commit_all(repo, "site and notes")
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "docs"\nrepo = "acme"\ndir = "site"\naudience = "public"\n\n'
        '[[sources]]\nname = "notes"\nrepo = "acme"\ndir = "notes"\naudience = "public"\n'
    )
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "100")
    monkeypatch.setenv("MCP_RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("DOCS_BASE_URL", BASE)
    get_settings.cache_clear()
    return repo


def sync() -> None:
    get_settings.cache_clear()
    asyncio.run(sync_configured_sources())


async def _fetch(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


def stored_places(url: str) -> dict[str, set[tuple[str, ...]]]:
    """source:page → the places its rows hold."""
    places: dict[str, set[tuple[str, ...]]] = {}
    for row in asyncio.run(_fetch(url, "select source, page, place from public.docs_section")):
        places.setdefault(f"{row['source']}:{row['page']}", set()).add(tuple(row["place"]))
    return places


@pytest.mark.parametrize(("name", "expected"), [
    ("docusaurus", {"docs/api/client.md": ("API",), "docs/guides/configure.md": ("Guides",), "docs/intro.md": ()}),
    ("mkdocs", {"docs/setup/install.md": ("Setup",), "docs/index.md": ()}),
])
def test_every_chunk_carries_its_pages_place_in_other_frameworks(name: str, expected: dict, tmp_path: Path) -> None:
    """Docusaurus sidebar categories and MkDocs nav sections are places too (app/corpus/site.py)."""
    repo = copy_tree_as_repo(SITE.parent / name, tmp_path / name, docs_dir="site")
    result = compose_corpus(Source(name="site", repo=repo, dir="site", audiences=("public",)), Settings())
    places = {chunk.page: chunk.place for chunk in result.chunks}
    assert {page: places[page] for page in expected} == expected
    assert all(chunk.place == next(p.place for p in result.pages if p.path == chunk.page) for chunk in result.chunks)


def test_a_sync_stores_each_pages_place_with_its_sections(site, clean_db, db_env) -> None:
    sync()
    places = stored_places(clean_db)
    assert {page: sorted(found) for page, found in places.items()} == {
        **{f"docs:{page}": [tuple(place)] for page, place in PLACES.items()},
        "notes:overview.md": [()],  # a site with no navigation: no place
    }


def test_a_place_changed_alone_reaches_the_database_on_the_next_sync(site, clean_db, db_env) -> None:
    sync()
    navigation = site / "site" / "docs.json"
    navigation.write_text(navigation.read_text().replace('"group": "Storage"', '"group": "Files and storage"'))
    commit_all(site, "rename a group")  # no page changed: only where one stands
    sync()
    places = stored_places(clean_db)
    assert places["docs:integrations/storage/overview.mdx"] == {("Documentation", "Files and storage")}
    assert places["docs:integrations/analytics/overview.mdx"] == {tuple(ANALYTICS)}


def test_rows_written_before_0027_get_their_place_at_the_next_sync(site, fresh_database, monkeypatch) -> None:
    """Down to 0026 (no place column) and up again: the rows and their page keys are still there, and
    the files did not change; the next sync still writes each row's place (the migration forgets the
    page keys), and as a metadata update: no text is written again."""
    url = fresh_database()
    migrate.upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    sync()
    migrate.downgrade(url, "2026_12_06_0026")
    migrate.upgrade(url)
    assert stored_places(url)["docs:integrations/storage/overview.mdx"] == {()}
    before = {r["id"]: r["content_hash"] for r in asyncio.run(_fetch(url, "select id, content_hash from public.docs_section"))}
    sync()
    places = stored_places(url)
    assert places["docs:integrations/storage/overview.mdx"] == {tuple(STORAGE)}
    assert places["docs:guides/deploy.mdx"] == {("Learn", "Guides", "How-to")}
    after = {r["id"]: r["content_hash"] for r in asyncio.run(_fetch(url, "select id, content_hash from public.docs_section"))}
    assert after == before


def _guides(server, question: str) -> list[dict[str, Any]]:
    response = httpx.post(server.url + "/docs/chat", json={"message": question}, timeout=60)
    assert response.status_code == 200, response.text
    parts = [p for p in parse_sse(response.text) if isinstance(p, dict)]
    return [p for p in parts if p["type"] == "source-url"]


def _place(part: dict[str, Any]) -> list[str] | None:
    return ((part.get("providerMetadata") or {}).get("docschat") or {}).get("place")


def test_relevant_guides_tell_same_titled_pages_apart_by_their_place(site, clean_db, start_server) -> None:
    sync()
    server = start_server()
    guides = _guides(server, "What do the storage integrations and the analytics integrations do?")
    overviews = {part["url"]: _place(part) for part in guides if part["title"] == "Overview"}
    assert overviews == {
        f"{BASE}/docs/integrations/analytics/overview": ANALYTICS,
        f"{BASE}/docs/integrations/storage/overview": STORAGE,
        f"{BASE}/notes/overview": None,  # a site with no navigation: no place, the part as before
    }, guides
    assert all(set(part) == {"type", "sourceId", "url", "title"} for part in guides if _place(part) is None)
    # Stored with the reply: a reload draws the same guides.
    with httpx.Client(base_url=server.url, timeout=60) as client:
        client.post("/docs/chat", json={"message": "What do the storage integrations do?"})
        stored = [s for m in client.get("/docs/chat").json()["messages"] for s in m.get("sources", [])]
    assert {"title": "Overview", "url": f"{BASE}/docs/integrations/storage/overview", "heading": "",
            "place": STORAGE} in stored, stored


def test_a_page_the_models_search_finds_is_listed_with_its_place(site, clean_db, start_server, fake_gemini) -> None:
    """The guides a search_docs call adds mid-answer (app/chat/tools.py) carry their place too."""
    sync()
    fake_gemini.replies = [
        [{"functionCall": {"name": "search_docs", "args": {"query": "connect PostHog"}}}],
        [{"text": "Connect PostHog [2]."}],
    ]
    guides = _guides(start_server(), "What do the storage integrations do?")
    posthog = [part for part in guides if part["title"] == "PostHog"]
    assert posthog and _place(posthog[0]) == ANALYTICS, guides
    assert guides.index(posthog[0]) > 0  # found by the tool, after the turn's own guides


AI_SDK = os.environ.get("DOCSCHAT_AI_SDK_DIR")  # a folder whose node_modules holds the `ai` package (v5)


@pytest.mark.skipif(not AI_SDK or shutil.which("node") is None,
                    reason="set DOCSCHAT_AI_SDK_DIR to a folder with `npm install ai@5` to check with the AI SDK")
def test_the_ai_sdk_keeps_each_guides_place(site, clean_db, start_server) -> None:
    """Every part passes the AI SDK's own chunk schema (as useChat's transport checks it), and its
    reader (readUIMessageStream) keeps the place on the message's source-url parts."""
    sync()
    server = start_server()
    body = httpx.post(server.url + "/docs/chat", json={"message": "What do the storage integrations do?"},
                      timeout=60).text
    script = """
const { readUIMessageStream, uiMessageChunkSchema } = require('ai');
const body = require('fs').readFileSync(0, 'utf8');
const chunks = body.split('\\n\\n').filter(b => b.startsWith('data: ') && b !== 'data: [DONE]')
  .map(b => JSON.parse(b.slice(6)));
(async () => {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate(chunk);
    if (!checked.success) throw new Error(JSON.stringify(chunk) + ': ' + checked.error);
  }
  const stream = new ReadableStream({ start(c) { chunks.forEach(x => c.enqueue(x)); c.close(); } });
  let last;
  for await (const message of readUIMessageStream({ stream })) last = message;
  console.log(JSON.stringify(last.parts.filter(p => p.type === 'source-url')));
})().catch(e => { console.error(e); process.exit(1); });
"""
    result = subprocess.run(["node", "-e", script], input=body, capture_output=True, text=True, timeout=60, cwd=AI_SDK)
    assert result.returncode == 0, result.stderr
    sources = json.loads(result.stdout)
    storage = next(p for p in sources if p["url"] == f"{BASE}/docs/integrations/storage/overview")
    assert storage["title"] == "Overview" and storage["providerMetadata"] == {"docschat": {"place": STORAGE}}


def test_the_search_box_returns_each_pages_place(site, clean_db, start_server) -> None:
    sync()
    server = start_server()
    response = httpx.get(server.url + "/docs/search", params={"q": "integrations"}, timeout=30)
    assert response.status_code == 200, response.text
    pages = {page["url"]: page for page in response.json()["results"]}
    assert pages[f"{BASE}/docs/integrations/analytics/overview"]["place"] == ANALYTICS
    assert pages[f"{BASE}/docs/integrations/storage/overview"]["place"] == STORAGE
    assert pages[f"{BASE}/notes/overview"]["place"] == []
    assert all(page["title"] == "Overview" for url, page in pages.items() if url.endswith("/overview"))


async def test_mcp_search_and_get_page_say_where_the_page_stands(site, clean_db, start_server) -> None:
    await asyncio.to_thread(sync)
    server = await asyncio.to_thread(start_server)
    async with http_session(server.url) as session:
        failed, found = await call(session, "search_docs", query="storage integrations keep files analytics events",
                                   limit=5)
        assert not failed, found
        places = {r["url"].split("#")[0]: r["place"] for r in found["results"] if r["title"] == "Overview"}
        assert places == {f"{BASE}/docs/integrations/analytics/overview": "Documentation › Analytics",
                          f"{BASE}/docs/integrations/storage/overview": "Documentation › Storage",
                          f"{BASE}/notes/overview": ""}, found
        failed, page = await call(session, "get_page", url=f"{BASE}/docs/integrations/storage/overview")
        assert not failed and page["title"] == "Overview" and page["place"] == "Documentation › Storage"
        failed, page = await call(session, "get_page", url=f"{BASE}/notes/overview")
        assert not failed and page["place"] == ""


def test_docschat_ask_and_search_print_the_place_after_the_title(site, clean_db, db_env) -> None:
    sync()
    env = {"DATABASE_URL": clean_db, "EMBEDDING_PROVIDER": "none"}
    asked = docschat_in_process("ask", "What do the storage integrations do?", env=env)
    assert asked.returncode == 0, asked.stderr
    assert "• Overview — Documentation › Storage  http" in asked.stdout, asked.stdout
    searched = docschat_in_process("search", "storage integrations", "--mode", "keyword", env=env)
    assert searched.returncode == 0, searched.stderr
    assert "1. Overview — Documentation › Storage " in searched.stdout, searched.stdout
    as_json = docschat_in_process("search", "storage integrations", "--mode", "keyword", "--json", env=env)
    assert json.loads(as_json.stdout)["pages"][0]["place"] == STORAGE


async def test_the_vector_leg_returns_each_sections_place(site, clean_db, db_env, fake_gemini, monkeypatch) -> None:
    """The other leg of a search (cosine, sql/functions/match_docs_sections.sql) as the chat reads it."""
    from app.corpus.sources import load_sources
    from app.db.pool import create_pool
    from app.embeddings.providers import get_embedding_provider
    from app.indexing.sync import sync_sources
    from app.search.legs import match_docs_sections

    monkeypatch.setenv("EMBEDDING_PROVIDER", "gemini")
    get_settings.cache_clear()
    settings = get_settings()
    pool = await create_pool(clean_db)
    try:  # as `docschat sync` does, with the (fake) Gemini embeddings
        assert not (await sync_sources(pool, load_sources(settings), settings, get_embedding_provider(settings))).failed
    finally:
        await pool.close()
    conn = await asyncpg.connect(clean_db)
    try:
        row = await conn.fetchrow("select embedding, embedding_model from public.docs_section"
                                  " where page = 'integrations/storage/overview.mdx'")
        assert row["embedding_model"] is not None
        hits = await match_docs_sections(conn, row["embedding"], row["embedding_model"], 20, ["public"])
    finally:
        await conn.close()
    places = {f"{hit.source}:{hit.page}": list(hit.place) for hit in hits}
    assert places == {**{f"docs:{page}": place for page, place in PLACES.items()}, "notes:overview.md": []}


# What the widget drew, from inside its shadow root: each guide's title and place, and each search
# result's place and title, with the colours they are drawn in.
DRAWN = """
() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  const guides = [...root.querySelectorAll('.assistant')].pop().querySelectorAll('.guides li');
  const color = el => el ? getComputedStyle(el).color : null;
  return {
    guides: [...guides].map(li => [li.querySelector('a').textContent, (li.querySelector('.g-place') || {}).textContent || '',
                                   color(li.querySelector('a')), color(li.querySelector('.g-place'))]),
    results: [...root.querySelectorAll('.results li:not(.ask)')].map(li => [
      (li.querySelector('.r-place') || {}).textContent || '', li.querySelector('.r-title').textContent]),
  };
}
"""


@pytest.mark.browser
def test_the_widget_shows_the_place_beside_guides_and_above_search_results(site, clean_db, start_server) -> None:
    from tests.test_widget_browser import ARGS, CHROMIUM, OUTPUT, ask, widget

    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    sync()
    server = start_server()
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.goto(server.url + "/")
            widget(page).get_by_role("button", name="Ask the documentation").click()
            ask(page, "What do the storage integrations and the analytics integrations do?")
            drawn = page.evaluate(DRAWN)
            guides = {(title, place) for title, place, _, _ in drawn["guides"]}
            assert {("Overview", "Documentation › Analytics"), ("Overview", "Documentation › Storage"),
                    ("Overview", "")} <= guides, drawn
            link_color, place_color = next((a, p) for _, place, a, p in drawn["guides"] if place)
            assert place_color != link_color  # muted, not a second link
            page.screenshot(path=str(OUTPUT / "place-guides.png"))
            page.reload()  # drawn again from the stored reply
            widget(page).get_by_role("button", name="Ask the documentation").click()
            widget(page).locator(".assistant .guides li").first.wait_for()
            assert {(t, p) for t, p, _, _ in page.evaluate(DRAWN)["guides"]} == guides

            page.keyboard.press("Control+k")
            widget(page).get_by_label("Search the docs", exact=True).and_(widget(page).locator("input")).fill("integrat")
            page.wait_for_function("() => document.querySelector('docs-chat').shadowRoot"
                                   ".querySelector('.search-status').textContent.includes('result')")
            results = page.evaluate(DRAWN)["results"]
            assert ["Documentation › Analytics", "Overview"] in results and ["Documentation › Storage", "Overview"] in results
            assert ["", "Overview"] in results, results  # the plain page: no place drawn
            page.screenshot(path=str(OUTPUT / "place-search.png"))
            page.set_viewport_size({"width": 360, "height": 740})  # a phone: the places wrap, nothing overflows
            page.screenshot(path=str(OUTPUT / "place-search-360.png"))
            page.keyboard.press("Escape")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.screenshot(path=str(OUTPUT / "place-guides-360.png"))
        finally:
            browser.close()
