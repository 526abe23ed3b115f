"""The page-level skip (design/page-keys.md): a page whose key (its blob, the
snippets it read or looked for, the compose fingerprint) is unchanged is not composed again; its
rows stay, counted unchanged. Compose calls are counted through compose._compose_page (the real
function, wrapped); the database is the real one."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

import app.indexing.sync as sync_module
import app.indexing.sync_apply as sync_apply
from app.config import Settings, get_settings
from app.corpus import chunker, compose
from app.corpus.sources import Source, SourcesConfig
from app.indexing.clear import clear_index
from app.indexing.sync import sync_sources
from tests.helpers import commit_all, count_composed_pages, make_docs_repo, write_files


@pytest.fixture
def keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()


@pytest.fixture
def composed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the pages composed (the real _compose_page, counted), in small batches."""
    calls = count_composed_pages(monkeypatch)
    monkeypatch.setattr(sync_module, "BATCH_CHUNKS", 4)
    return calls


def _source(repo: Path, **kwargs: object) -> Source:
    return Source(name="docs", repo=repo, branch="main", dir="docs", **kwargs)  # type: ignore[arg-type]


async def _sync(pool: asyncpg.Pool, source: Source, calls: list[str], *, full: bool = False,
                settings: Settings | None = None):
    calls.clear()
    report = await sync_sources(pool, SourcesConfig((source,)), settings or get_settings(), None, full=full)
    return report, sorted(calls)


def _page(title: str, words: str, audience: str | None = "public", body: str = "") -> str:
    front = f"---\ntitle: {title}\n" + (f"audience: {audience}\n" if audience else "") + "---\n"
    return front + f"{body}Overview of {title}: {words}.\n\n## Part one\n\n{words} one\n\n## Part two\n\n{words} two\n"


async def _pages(pool: asyncpg.Pool) -> dict[str, str]:
    """page → its rows' text, joined in id order."""
    rows = await pool.fetch("select page, string_agg(content, ' | ' order by id) as text from docs_section group by page")
    return {r["page"]: r["text"] for r in rows}


async def _keys(pool: asyncpg.Pool) -> dict[str, bytes]:
    return {r["page"]: r["key"] for r in await pool.fetch("select page, key from docs_page_key")}


async def test_only_the_changed_page_is_composed_and_a_no_op_composes_nothing(
    pool, keyword_only, composed, tmp_path: Path,
) -> None:
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", f"alpha{i}") for i in range(6)})
    first, calls = await _sync(pool, _source(repo), composed)
    assert calls == [f"p{i}.md" for i in range(6)] and first.new == first.chunks > 6
    assert len(await _keys(pool)) == 6

    noop, calls = await _sync(pool, _source(repo), composed)
    assert calls == []
    assert (noop.pages, noop.chunks, noop.unchanged) == (first.pages, first.chunks, first.chunks)
    assert not (noop.new or noop.changed or noop.deleted)

    write_files(repo / "docs", {"p2.md": _page("P2", "alpha2 edited")})
    commit_all(repo, "edit p2")
    before = await _pages(pool)
    edited, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p2.md"]
    assert edited.changed >= 1 and edited.pages == 6 and edited.chunks == first.chunks
    after = await _pages(pool)
    assert "edited" in after["p2.md"]
    assert {p: t for p, t in after.items() if p != "p2.md"} == {p: t for p, t in before.items() if p != "p2.md"}

    # --full composes every page, and writes nothing that did not change.
    full, calls = await _sync(pool, _source(repo), composed, full=True)
    assert calls == [f"p{i}.md" for i in range(6)] and full.unchanged == full.chunks


async def test_a_changed_snippet_recomposes_its_importers_only(pool, keyword_only, composed, tmp_path: Path) -> None:
    imports = 'import Shared from "/snippets/shared.mdx"\n\n<Shared />\n\n'
    missing = 'import Later from "/snippets/later.mdx"\n\n<Later />\n\n'
    repo = make_docs_repo(tmp_path / "r", {
        "a.mdx": _page("A", "alpha", body=imports),
        "b.mdx": _page("B", "beta"),
        "c.mdx": _page("C", "gamma", body=missing),  # imports a snippet that is not there yet
        "snippets/shared.mdx": "Snippet words version one.\n",
    })
    first, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["a.mdx", "b.mdx", "c.mdx"]
    assert "version one" in (await _pages(pool))["a.mdx"]
    assert any("later.mdx" in w for w in first.warnings)

    # A skipped page still warns as when it was composed.
    noop, calls = await _sync(pool, _source(repo), composed)
    assert calls == [] and any("later.mdx" in w for w in noop.warnings)

    write_files(repo / "docs", {"snippets/shared.mdx": "Snippet words version two.\n"})
    commit_all(repo, "snippet edited")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["a.mdx"]
    assert "version two" in (await _pages(pool))["a.mdx"]

    # The snippet becomes internal: the public page that pastes it must drop its text.
    write_files(repo / "docs", {"snippets/shared.mdx": "---\naudience: internal\n---\nSecret version three.\n"})
    commit_all(repo, "snippet internal")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["a.mdx"]
    assert "Secret" not in (await _pages(pool))["a.mdx"]

    # The snippet a page looked for appears: that page is composed again.
    write_files(repo / "docs", {"snippets/later.mdx": "Arrived later.\n"})
    commit_all(repo, "snippet added")
    later, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["c.mdx"]
    assert "Arrived later" in (await _pages(pool))["c.mdx"]
    assert not any("later.mdx" in w for w in later.warnings)


async def test_a_deleted_page_is_deleted_and_a_front_matter_audience_change_applies(
    pool, keyword_only, composed, tmp_path: Path,
) -> None:
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", f"delta{i}") for i in range(4)})
    await _sync(pool, _source(repo), composed)
    (repo / "docs" / "p1.md").unlink()
    write_files(repo / "docs", {"p3.md": _page("P3", "delta3", audience="internal")})
    commit_all(repo, "p1 gone, p3 internal")
    report, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p3.md"]
    assert report.deleted >= 1
    pages = await _pages(pool)
    assert set(pages) == {"p0.md", "p2.md", "p3.md"}
    assert set(await _keys(pool)) == {"p0.md", "p2.md", "p3.md"}
    assert {tuple(r["audiences"]) for r in await pool.fetch(
        "select distinct audiences from docs_section where page = 'p3.md'")} == {("internal",)}


async def test_a_chunker_version_or_setting_change_recomposes_everything(
    pool, keyword_only, composed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_docs_repo(tmp_path / "r", {
        "p0.md": _page("P0", "eps"), "p1.md": _page("P1", "eps"),
        "undeclared.md": _page("U", "eps", audience=None),
    })
    await _sync(pool, _source(repo), composed)

    monkeypatch.setattr(chunker, "CHUNKER_VERSION", chunker.CHUNKER_VERSION + "-next")
    report, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md", "undeclared.md"] and report.changed == report.chunks
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == []

    settings = get_settings().model_copy(update={"max_chunk_chars": get_settings().max_chunk_chars - 1})
    _, calls = await _sync(pool, _source(repo), composed, settings=settings)
    assert calls == ["p0.md", "p1.md", "undeclared.md"]

    # The source's default audience (of the pages that declare none) is part of the fingerprint.
    report, calls = await _sync(pool, _source(repo, audiences=("public",)), composed, settings=settings)
    assert calls == ["p0.md", "p1.md", "undeclared.md"]
    assert await pool.fetchval(
        "select bool_and(audiences = '{public}') from docs_section where page = 'undeclared.md'")


async def test_a_new_page_reader_reads_every_page_again_and_embeds_only_what_changed(
    pool, keyword_only, composed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reading code (its bundle, its Python, its parsers' versions) is in every page's key: pages
    indexed by an older reader (one that showed a component's label, say, that the new one shows)
    are read again once, not left as they were until their files change."""
    repo = make_docs_repo(tmp_path / "r", {"p0.md": _page("P0", "eps"), "p1.md": _page("P1", "eps")})
    await _sync(pool, _source(repo), composed)
    hashes = await pool.fetch("select id, content_hash from docs_section order by id")

    monkeypatch.setattr(compose, "reading_version", lambda: "another-reader")
    report, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md"] and report.changed == 0 and report.new == 0
    assert await pool.fetch("select id, content_hash from docs_section order by id") == hashes
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == []


async def test_route_collisions_hold_with_skipped_pages(pool, keyword_only, composed, tmp_path: Path) -> None:
    """`sub.md` and `sub/index.md` are both /sub: the first by path stays, skipped or not."""
    repo = make_docs_repo(tmp_path / "r", {"sub.md": _page("Flat", "zeta flat"),
                                           "sub/index.md": _page("Folder", "zeta folder"), "x.md": _page("X", "x")})
    first, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["sub.md", "x.md"] and set(await _pages(pool)) == {"sub.md", "x.md"}

    noop, calls = await _sync(pool, _source(repo), composed)
    assert calls == [] and set(await _pages(pool)) == {"sub.md", "x.md"}
    assert any("sub/index.md" in w and "published at" in w for w in noop.warnings)

    (repo / "docs" / "sub.md").unlink()
    commit_all(repo, "flat gone")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["sub/index.md"] and set(await _pages(pool)) == {"sub/index.md", "x.md"}

    write_files(repo / "docs", {"sub.md": _page("Flat", "zeta flat")})
    commit_all(repo, "flat back")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["sub.md"] and set(await _pages(pool)) == {"sub.md", "x.md"}
    assert set(await _keys(pool)) == {"sub.md", "x.md"}
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == [] and set(await _pages(pool)) == {"sub.md", "x.md"}


async def test_keys_follow_the_rows(pool, keyword_only, composed, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A key is written with its rows or not at all: a sync that fails at its switch leaves the
    keys as they were (the edited page is composed next time); `index clear` empties them, and
    a page whose rows are gone is composed again."""
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", f"theta{i}") for i in range(3)})
    await _sync(pool, _source(repo), composed)
    keys = await _keys(pool)
    write_files(repo / "docs", {"p1.md": _page("P1", "theta1 edited")})
    commit_all(repo, "edit")

    real_switch = sync_apply.switch

    async def failing_switch(*args, **kwargs):
        await real_switch(*args, **kwargs)
        raise RuntimeError("the switch's transaction rolls back")

    monkeypatch.setattr(sync_apply, "switch", failing_switch)
    with pytest.raises(RuntimeError):
        await _sync(pool, _source(repo), composed)
    assert await _keys(pool) == keys and "edited" not in (await _pages(pool))["p1.md"]
    monkeypatch.setattr(sync_apply, "switch", real_switch)
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p1.md"] and "edited" in (await _pages(pool))["p1.md"]

    await clear_index(pool)
    assert await _keys(pool) == {}
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md", "p2.md"] and len(await _pages(pool)) == 3

    # A row written behind the sync's back (made public): its page is composed, the row put back.
    await pool.execute("update docs_section set audiences = '{internal}' where page = 'p0.md'")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md"]
    assert await pool.fetchval("select bool_and(audiences = '{public}') from docs_section where page = 'p0.md'")

    # Rows deleted behind the sync's back (not by `index clear`): the count no longer matches.
    owner_rows = await pool.execute("delete from docs_section where page = 'p2.md'")
    assert owner_rows != "DELETE 0"
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p2.md"] and len(await _pages(pool)) == 3


async def test_a_navigation_change_recomposes_the_pages_it_decides(pool, keyword_only, composed, tmp_path: Path) -> None:
    """Every page depends on the site's configuration (app/corpus/site.py): a page taken out of
    docs.json's navigation is deleted at the next sync, though its own file did not change."""
    nav = '{"navigation": {"groups": [{"group": "G", "pages": [%s]}]}}'
    repo = make_docs_repo(tmp_path / "r", {"docs.json": nav % '"p0", "p1"', "p0.md": _page("P0", "alpha0"),
                                           "p1.md": _page("P1", "alpha1")})
    await _sync(pool, _source(repo), composed)
    assert set(await _pages(pool)) == {"p0.md", "p1.md"}
    write_files(repo / "docs", {"docs.json": nav % '"p0"'})
    commit_all(repo, "p1 leaves the navigation")
    report, calls = await _sync(pool, _source(repo), composed)
    assert set(await _pages(pool)) == {"p0.md"}
    assert calls == ["p0.md", "p1.md"] and report.deleted > 0


async def test_a_page_linking_a_stylesheet_is_kept_until_a_stylesheet_changes(
    pool, keyword_only, composed, tmp_path: Path,
) -> None:
    """A page's `<link rel=stylesheet href="/x.css">` is matched by file name among the source's
    stylesheets (Site.linked_css), all of which are in every page key (Site.css_key): finding them
    must not make the page depend on every path (no key, composed at every sync)."""
    linking = _page("Styled", "alpha0", body='<link rel="stylesheet" href="/css/hide.css">\n\n'
                    '<div class="secret">hushword</div>\n\n')
    repo = make_docs_repo(tmp_path / "r", {"p0.md": linking, "p1.md": _page("P1", "alpha1"),
                                           "static/css/hide.css": ".secret { display: none }\n"})
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md"] and set(await _keys(pool)) == {"p0.md", "p1.md"}
    assert "hushword" not in (await _pages(pool))["p0.md"]

    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == []

    write_files(repo / "docs", {"static/css/hide.css": ".other { display: none }\n"})
    commit_all(repo, "the stylesheet hides nothing of the page")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md"] and "hushword" in (await _pages(pool))["p0.md"]

    write_files(repo / "docs", {"theme/hide.css": ".secret { display: none }\n"})
    commit_all(repo, "another file of the name: applied too")
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["p0.md", "p1.md"] and "hushword" not in (await _pages(pool))["p0.md"]
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == []


async def test_a_site_linking_a_stylesheet_by_url_keys_every_page(pool, keyword_only, composed, tmp_path: Path) -> None:
    """Docusaurus's `stylesheets` (URLs every page links, found by file name): found once for the
    site, not for the first page composed (which then had no key and was composed at every sync)."""
    repo = make_docs_repo(tmp_path / "r", {
        "docusaurus.config.js": "module.exports = {stylesheets: ['/css/hide.css']};\n",
        "docs/p0.md": _page("P0", "alpha0", body='<div class="secret">hushword</div>\n\n'),
        "docs/p1.md": _page("P1", "alpha1"), "static/css/hide.css": ".secret { display: none }\n"})
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == ["docs/p0.md", "docs/p1.md"] and set(await _keys(pool)) == {"docs/p0.md", "docs/p1.md"}
    assert "hushword" not in (await _pages(pool))["docs/p0.md"]
    _, calls = await _sync(pool, _source(repo), composed)
    assert calls == []
