"""What the sync's switch writes besides the rows (app/indexing/sync_apply.py, design/scale-sync.md):
the commits of the configured sources only, and a plan made again composes every page. Real git,
real Postgres; compose calls counted through the real compose._compose_page."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

import app.indexing.sync as sync_module
from app.config import get_settings
from app.corpus.sources import Source, SourcesConfig
from app.indexing.sync import sync_sources
from tests.helpers import commit_all, count_composed_pages, make_docs_repo, write_files


@pytest.fixture
def keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()


def _page(title: str, words: str) -> str:
    return f"---\ntitle: {title}\naudience: public\n---\nOverview of {title}: {words}.\n\n## Part\n\n{words} part\n"


def _source(repo: Path, name: str = "docs") -> Source:
    return Source(name=name, repo=repo, branch="main", dir="docs")


async def _commits(pool: asyncpg.Pool) -> list[str]:
    return [r["source"] for r in await pool.fetch("select source from docs_source_commit order by source")]


async def test_a_source_no_longer_configured_loses_its_commit_with_its_rows(pool, keyword_only, tmp_path) -> None:
    one = make_docs_repo(tmp_path / "one", {"a.md": _page("A", "alpha")})
    two = make_docs_repo(tmp_path / "two", {"b.md": _page("B", "beta")})
    settings = get_settings()
    await sync_sources(pool, SourcesConfig((_source(one, "one"), _source(two, "two"))), settings, None)
    assert await _commits(pool) == ["one", "two"]
    await sync_sources(pool, SourcesConfig((_source(one, "one"),)), settings, None)
    assert await pool.fetchval("select count(*) from docs_section where source = 'two'") == 0
    assert await _commits(pool) == ["one"]  # `docschat status` and the code tools read these


async def test_a_plan_made_again_composes_every_page(pool, keyword_only, tmp_path, monkeypatch) -> None:
    """Another writer between staging and the switch makes the sync plan again; the page keys may
    no longer say what the rows are, so the second attempt composes every page, kept or not."""
    pages = {f"p{i}.md": _page(f"P{i}", f"word{i}") for i in range(4)}
    repo = make_docs_repo(tmp_path / "r", pages)
    await sync_sources(pool, SourcesConfig((_source(repo),)), get_settings(), None)
    write_files(repo / "docs", {"p3.md": _page("P3", "word3 edited")})
    commit_all(repo, "edit")
    composed = count_composed_pages(monkeypatch)
    staged = sync_module.stage_batch
    interfered: list[bool] = []

    async def stage_then_interfere(conn, gen, records):
        await staged(conn, gen, records)
        if not interfered:  # a write anywhere moves the index version: the switch refuses
            interfered.append(True)
            await conn.execute("update docs_section set title = title where page = 'p3.md'")

    monkeypatch.setattr(sync_module, "stage_batch", stage_then_interfere)
    report = await sync_sources(pool, SourcesConfig((_source(repo),)), get_settings(), None)
    assert interfered and not report.failed
    first, again = composed[:1], composed[1:]
    assert first == ["p3.md"]  # the first attempt composed the edited page only
    assert sorted(again) == sorted(pages)  # the second, every page
