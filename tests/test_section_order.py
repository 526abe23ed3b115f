"""Where each section reads is stored at sync (docs_section.page_order: its page's position in the
site's navigation; section_order: its position in its page), and every reader orders by it: the
page view, MCP's get_page, /llms.txt, /llms-full.txt and the chat's passages of one page (issue 46).
Nothing is read from git when asked. A change to the positions alone (a page moved in the
navigation, a section added above) is written without embedding anything again. Real git, a real
sync into the test Postgres, the app over HTTP, the MCP SDK's client, real migrations."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from app.config import Settings, get_settings
from app.corpus.compose import DocsSource, compose_files
from app.corpus.sources import Source
from app.db import migrate
from app.embeddings.cache import EmbeddingCache, cache_path
from app.embeddings.providers import get_embedding_provider
from tests.helpers import commit_all, make_docs_repo, sync_configured_sources, sync_corpus, write_files
from tests.test_mcp import call, http_session

BASE = "https://docs.example.com"
# The navigation lists Zebra's page first; ids and paths sort it last. Its sections come in the
# file as Zebra, then Apple (ids sort apple first); Zebra is long enough to be cut in parts.
LONG = "\n\n".join(f"The zebra setup step {n} configures the stripes of the widget for the visitor. " * 5
                   for n in range(1, 4))
PAGES = {
    "docs.json": json.dumps({"navigation": {"groups": [
        {"group": "Start", "pages": ["zoo", "alpha"]},
        {"group": "More", "pages": ["guides/mid"]},
    ]}}),
    "zoo.mdx": "---\ntitle: Zoo\naudience: public\n---\nThe zoo overview.\n\n"
               f"## Zebra setup\n{LONG}\n\n## Apple notes\nThe apple notes come last.\n",
    "alpha.mdx": "---\ntitle: Alpha\naudience: public\n---\nThe alpha page.\n\n## Begin\nBegin with alpha.\n",
    "guides/mid.mdx": "---\ntitle: Mid\naudience: public\n---\nThe mid page.\n",
}
ZEBRA = "docs:zoo.mdx#zebra-setup"


def _compose(files: dict[str, str]) -> dict[str, tuple[int | None, int | None]]:
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("public",)))
    return {c.id: (c.page_order, c.section_order) for c in result.chunks}


def test_compose_gives_each_chunk_its_pages_place_in_the_navigation_and_its_own_in_the_page() -> None:
    positions = _compose(PAGES)
    assert positions == {
        "docs:zoo.mdx": (0, 0), ZEBRA: (0, 1), f"{ZEBRA}~2": (0, 2), "docs:zoo.mdx#apple-notes": (0, 3),
        "docs:alpha.mdx": (1, 0), "docs:alpha.mdx#begin": (1, 1),
        "docs:guides/mid.mdx": (2, 0),
    }
    # A site without navigation: no page is listed (they go by path), sections still in page order.
    plain = _compose({k: v for k, v in PAGES.items() if k != "docs.json"})
    assert {i: p for i, (p, _) in plain.items()} == dict.fromkeys(plain, None)
    assert [plain[i][1] for i in ("docs:zoo.mdx", ZEBRA, f"{ZEBRA}~2", "docs:zoo.mdx#apple-notes")] == [0, 1, 2, 3]


async def _positions(url_or_pool: Any) -> dict[str, tuple[int | None, int | None]]:
    sql = "select id, page_order, section_order from public.docs_section"
    if isinstance(url_or_pool, str):
        conn = await asyncpg.connect(url_or_pool)
        try:
            rows = await conn.fetch(sql)
        finally:
            await conn.close()
    else:
        rows = await url_or_pool.fetch(sql)
    return {r["id"]: (r["page_order"], r["section_order"]) for r in rows}


async def test_a_sync_stores_the_positions_and_a_move_alone_embeds_nothing(pool, fake_gemini, tmp_path: Path) -> None:
    """Alpha moved above Zoo in docs.json, and a section added at the top of Zoo: the one new section
    is embedded; every other row gets its new positions as a metadata update, its text and hash kept."""
    repo = make_docs_repo(tmp_path / "r", PAGES)
    settings = get_settings()
    source = DocsSource(repo, "main", "docs")
    provider = get_embedding_provider(settings)
    cache = EmbeddingCache(cache_path(settings.docschat_home))
    try:
        first = await sync_corpus(pool, source, settings, provider, cache=cache)
        assert first.embedded == first.chunks
        assert await _positions(pool) == _compose(PAGES)
        hashes = {r["id"]: r["content_hash"] for r in await pool.fetch("select id, content_hash from docs_section")}
        moved = dict(PAGES, **{
            "docs.json": PAGES["docs.json"].replace('["zoo", "alpha"]', '["alpha", "zoo"]'),
            "zoo.mdx": PAGES["zoo.mdx"].replace("## Zebra setup", "## Aardvark\nThe aardvark comes first.\n\n## Zebra setup"),
        })
        write_files(repo / "docs", moved)
        commit_all(repo, "alpha first; a section above zebra")
        calls = len(fake_gemini.embed_calls())
        second = await sync_corpus(pool, source, settings, provider, cache=cache)
    finally:
        cache.close()
    texts = [r["content"]["parts"][0]["text"] for c in fake_gemini.embed_calls()[calls:] for r in c["body"]["requests"]]
    assert second.embedded == 1 and len(texts) == 1 and "aardvark comes first" in texts[0], texts
    # Alpha's 2 rows and Zoo's 4 moved; Mid's page stays third, its row untouched.
    assert (second.new, second.metadata_only, second.unchanged) == (1, 6, 1)
    stored = await _positions(pool)
    assert stored == _compose(moved)
    assert stored["docs:alpha.mdx"] == (0, 0) and stored["docs:zoo.mdx#aardvark"] == (1, 1)
    assert stored[ZEBRA] == (1, 2) and stored["docs:zoo.mdx#apple-notes"] == (1, 4)
    after = {r["id"]: r["content_hash"] for r in await pool.fetch("select id, content_hash from docs_section")}
    assert {i: after[i] for i in hashes} == hashes


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PAGES in a repository, named by a docschat.toml in the test's working folder. Keyword-only."""
    repo = make_docs_repo(tmp_path / "acme", PAGES)
    (tmp_path / "docschat.toml").write_text('[[sources]]\nname = "docs"\nrepo = "acme"\ndir = "docs"\n')
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("DOCS_BASE_URL", BASE)
    monkeypatch.setenv("MCP_RATE_LIMIT_PER_HOUR", "100")
    get_settings.cache_clear()
    return repo


def sync() -> None:
    get_settings.cache_clear()
    asyncio.run(sync_configured_sources())


async def _execute(url: str, sql: str, *args: Any) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()


def _llms(server) -> tuple[list[str], list[str], str]:
    """/llms.txt's section headings and page titles, and /llms-full.txt."""
    index = httpx.get(server.url + "/llms.txt", timeout=30).text
    full = httpx.get(server.url + "/llms-full.txt", timeout=30).text
    return re.findall(r"^## (.+)$", index, re.MULTILINE), re.findall(r"^- \[([^\]]+)\]", index, re.MULTILINE), full


async def _get_page_text(server) -> str:
    async with http_session(server.url) as session:
        failed, page = await call(session, "get_page", url=f"{BASE}/docs/zoo")
    assert not failed, page
    return page["text"]


def test_every_reader_orders_by_the_stored_positions(site, clean_db, owner_database_url, start_server) -> None:
    """The page view, get_page, /llms.txt and /llms-full.txt follow the stored positions: as
    synced, the navigation's and the file's order; then, with the positions changed in the
    database only and the repository moved away (nothing is read from it), the changed order."""
    sync()
    server = start_server()
    view = httpx.get(server.url + "/docs/zoo", timeout=30).text
    assert view.index("The zoo overview.") < view.index("<h2>Zebra setup</h2>") < view.index("step 3 configures") \
        < view.index("<h2>Apple notes</h2>")
    text = asyncio.run(_get_page_text(server))
    assert text.index("The zoo overview.") < text.index("## Zebra setup") < text.index("## Apple notes")
    headings, titles, full = _llms(server)
    assert headings == ["Start", "More"] and titles == ["Zoo", "Alpha", "Mid"]
    assert full.index("# Zoo") < full.index("# Alpha") < full.index("# Mid")
    assert full.index("## Zebra setup") < full.index("## Apple notes")

    # Changed in the database alone (the repository moved away): Apple above Zebra, Mid's page first.
    shutil.move(site, site.parent / "moved-away")
    asyncio.run(_execute(owner_database_url, "update public.docs_section set page_order = -1 where page = 'guides/mid.mdx'"))
    asyncio.run(_execute(owner_database_url,
                         "update public.docs_section set section_order = case id when $1 then 1 else 10 end"
                         " where page = 'zoo.mdx' and id <> 'docs:zoo.mdx'", "docs:zoo.mdx#apple-notes"))
    view = httpx.get(server.url + "/docs/zoo", timeout=30).text
    assert view.index("The zoo overview.") < view.index("<h2>Apple notes</h2>") < view.index("<h2>Zebra setup</h2>")
    # Zebra's two parts share a position here: the first part still leads, its heading shown once.
    assert view.count("<h2>Zebra setup</h2>") == 1 and view.index("<h2>Zebra setup</h2>") < view.index("step 3 configures")
    text = asyncio.run(_get_page_text(server))
    assert text.index("## Apple notes") < text.index("## Zebra setup")
    headings, titles, full = _llms(server)
    assert headings == ["More", "Start"] and titles == ["Mid", "Zoo", "Alpha"]
    assert full.index("# Mid") < full.index("# Zoo") < full.index("## Apple notes") < full.index("## Zebra setup")


async def _fetch(url: str, sql: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql)
    finally:
        await conn.close()


def test_rows_synced_before_0028_read_by_id_then_get_their_positions_without_new_text(
    site, fresh_database, monkeypatch, start_server
) -> None:
    """Down to 0027 (no position columns) and up again: the rows and their page keys are still
    there, with no positions. The readers still serve them (by path and id, a section's parts after
    it), and the next sync writes every row's positions (the migration forgot the page keys) as a
    metadata update: no row's text, so no embedding, changes."""
    url = fresh_database()
    migrate.upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    sync()
    migrate.downgrade(url, "2026_12_06_0027")
    columns = {r["column_name"] for r in asyncio.run(_fetch(
        url, "select column_name from information_schema.columns where table_name = 'docs_section'"))}
    assert "section_order" not in columns and "page_order" not in columns
    migrate.upgrade(url)
    assert set(asyncio.run(_positions(url)).values()) == {(None, None)}
    server = start_server()
    headings, titles, full = _llms(server)
    assert titles == ["Alpha", "Zoo", "Mid"]  # no position yet: by path, under the folders
    view = httpx.get(server.url + "/docs/zoo", timeout=30).text
    assert view.index("<h2>Apple notes</h2>") < view.index("<h2>Zebra setup</h2>") < view.index("step 3 configures")
    before = {r["id"]: r["content_hash"] for r in asyncio.run(_fetch(url, "select id, content_hash from docs_section"))}
    sync()
    assert asyncio.run(_positions(url)) == _compose(PAGES)
    after = {r["id"]: r["content_hash"] for r in asyncio.run(_fetch(url, "select id, content_hash from docs_section"))}
    assert after == before
    headings, titles, full = _llms(server)
    assert headings == ["Start", "More"] and titles == ["Zoo", "Alpha", "Mid"]
