"""The batched sync (design/scale-sync.md): a source staged in several batches and switched in one
transaction; statistics kept from the touched rows equal a full rebuild; a sync killed at any point
leaves every source as it was (or, killed after its switch committed, as the new commit has it)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import app.indexing.sync as sync_module
from app.config import get_settings
from app.corpus.sources import Source, SourcesConfig
from app.indexing.sync import sync_sources
from tests.helpers import commit_all, make_docs_repo, write_files

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of a few chunks: every sync below stages in several."""
    monkeypatch.setattr(sync_module, "BATCH_CHUNKS", 4)


def _source(repo: Path, name: str = "docs") -> Source:
    return Source(name=name, repo=repo, branch="main", dir="docs")


async def _sync(pool: asyncpg.Pool, *sources: Source, only: str | None = None):
    return await sync_sources(pool, SourcesConfig(tuple(sources)), get_settings(), None, only=only)


def _page(title: str, audience: str | None, words: str, sections: int = 3) -> str:
    front = f"---\ntitle: {title}\n" + (f"audience: {audience}\n" if audience else "") + "---\n"
    body = "\n\n".join(f"## Part {i} of {title}\n\n{words} section{i} {title.lower()}word" for i in range(sections))
    return front + f"Overview of {title}: {words}.\n\n" + body + "\n"


_REBUILT_LEXEMES = """
select d.audiences, t.lexeme, count(*)::integer as ndoc
from docs_section d cross join lateral unnest(d.search_vector) as t(lexeme, positions, weights)
group by 1, 2
"""
_REBUILT_SETS = "select audiences, count(*)::integer as section_count from docs_section group by 1"


async def _stats(pool: asyncpg.Pool) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    lexemes = {(tuple(r["audiences"]), r["lexeme"], r["ndoc"])
               for r in await pool.fetch("select audiences, lexeme, ndoc from docs_lexeme_stats")}
    sets = {(tuple(r["audiences"]), r["section_count"])
            for r in await pool.fetch("select audiences, section_count from docs_search_stats")}
    return lexemes, sets


async def _rebuilt(pool: asyncpg.Pool) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    """What refresh_docs_search_stats would write, read without writing it."""
    lexemes = {(tuple(r["audiences"]), r["lexeme"], r["ndoc"]) for r in await pool.fetch(_REBUILT_LEXEMES)}
    sets = {(tuple(r["audiences"]), r["section_count"]) for r in await pool.fetch(_REBUILT_SETS)}
    return lexemes, sets


# The full-text leg's narrow table (sql/020_section_fts.sql) against what a rebuild from
# docs_section gives: rows in one and not the other, either way.
_FTS_DIFFERENCES = """
select count(*)::int from (
  (select id, audiences, search_vector from docs_section
   except all select id, audiences, search_vector from docs_section_fts)
  union all
  (select id, audiences, search_vector from docs_section_fts
   except all select id, audiences, search_vector from docs_section)) as differing
"""


async def _fts_differences(pool: asyncpg.Pool) -> int:
    return await pool.fetchval(_FTS_DIFFERENCES)


async def test_incremental_statistics_equal_a_full_rebuild(pool, keyword_only, small_batches, tmp_path: Path) -> None:
    pages = {f"guide-{i}.md": _page(f"Guide{i}", ["public", "internal", "public, partner"][i % 3], f"alpha w{i}")
             for i in range(9)}
    pages["snippets/shared.mdx"] = "Shared snippet words.\n"
    repo = make_docs_repo(tmp_path / "r", pages)
    other = make_docs_repo(tmp_path / "o", {"a.md": _page("Other", "public", "alpha otherword")})
    first = await _sync(pool, _source(repo), _source(other, "other"))
    assert first.new == first.chunks > 4 * 3  # several batches
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0

    untouched = await pool.fetchval(
        "select xmin::text from docs_lexeme_stats where lexeme = 'guide6word'")  # only in guide-6.md
    assert untouched is not None
    # Edits, an addition, a deletion, audience changes (a whole set emptied: 'public, partner' → public).
    write_files(repo / "docs", {
        "guide-0.md": _page("Guide0", "public", "alpha edited words w0"),
        "guide-2.md": _page("Guide2", "public", "alpha w2"),
        "guide-8.md": _page("Guide8", "public", "alpha w8", sections=1),
        "guide-new.md": _page("GuideNew", "internal", "beta brandnew"),
    })
    (repo / "docs" / "guide-1.md").unlink()
    write_files(repo / "docs", {"guide-4.md": _page("Guide4", "internal", "alpha w4"),  # public → internal
                                "guide-5.md": _page("Guide5", "public", "alpha w5")})
    (repo / "docs" / "guide-6.md").write_text(pages["guide-6.md"])  # as it was
    commit_all(repo, "edits")
    second = await _sync(pool, _source(repo), _source(other, "other"))
    assert second.new and second.changed and second.deleted and second.unchanged
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0
    # No full rebuild: a statistic no touched row holds was not rewritten.
    assert await pool.fetchval("select xmin::text from docs_lexeme_stats where lexeme = 'guide6word'") == untouched
    assert not await pool.fetchval("select exists (select 1 from docs_search_stats"
                                   " where audiences = '{partner,public}')")

    # A source no longer configured, and one synced alone.
    third = await _sync(pool, _source(repo))
    assert third.deleted >= 1 and not await pool.fetchval("select count(*) from docs_section where source = 'other'")
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0
    (repo / "docs" / "guide-3.md").unlink()
    commit_all(repo, "one page fewer")
    await _sync(pool, _source(repo), only="docs")
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0
    assert not await pool.fetchval("select count(*) from docs_section_stage")  # generations are dropped


async def test_no_op_resync_stages_and_writes_nothing(pool, keyword_only, small_batches, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", "public", "gamma") for i in range(5)})
    await _sync(pool, _source(repo))
    version = await pool.fetchval("select version from docs_index_version")
    stats = await pool.fetchval("select max(refreshed_at)::text from docs_search_stats")
    report = await _sync(pool, _source(repo))
    assert report.unchanged == report.chunks and not (report.new or report.changed or report.deleted)
    assert await pool.fetchval("select version from docs_index_version") == version
    assert await pool.fetchval("select max(refreshed_at)::text from docs_search_stats") == stats


async def test_a_write_between_batches_and_the_switch_makes_the_sync_plan_again(
    pool, keyword_only, small_batches, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another writer changed a row of a page planned in an early batch: the switch sees the index
    version moved, and the sync plans again from what is there (the commit's audience wins)."""
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", "internal", "delta") for i in range(4)})
    await _sync(pool, _source(repo))
    write_files(repo / "docs", {"p3.md": _page("P3", "internal", "delta edited")})
    commit_all(repo, "edit")
    staged = sync_module.stage_batch
    interfered: list[object] = []

    async def stage_then_interfere(conn, gen, records):
        await staged(conn, gen, records)
        if not interfered:
            interfered.append(True)
            await conn.execute("update docs_section set audiences = '{public}' where page = 'p0.md'")

    monkeypatch.setattr(sync_module, "stage_batch", stage_then_interfere)
    report = await _sync(pool, _source(repo))
    assert report.metadata_only >= 1  # the second plan put p0.md back
    assert set(await pool.fetchval("select array_agg(distinct a) from docs_section, unnest(audiences) a")) == {
        "internal"}


# --- kill -9 -----------------------------------------------------------------------------------

_CHILD = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    import app.indexing.sync as sync_module
    from app.config import get_settings
    from app.corpus.sources import Source, SourcesConfig
    from app.db.pool import create_pool
    from app.indexing.sync import sync_sources

    sync_module.BATCH_CHUNKS = 3

    async def main():
        settings = get_settings()
        pool = await create_pool(settings.database_url)
        sources = tuple(Source(name=name, repo=Path(sys.argv[1]) / name, branch="main", dir="docs")
                        for name in ("one", "two"))
        await sync_sources(pool, SourcesConfig(sources), settings, None, wait_for_lock=True)
        await pool.close()

    asyncio.run(main())
""")


def _version_pages(version: str, count: int) -> dict[str, str]:
    return {f"p{i:02d}.md": _page(f"P{i}", "public", f"{version}word") for i in range(count)}


def _head(repo: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


async def _state(pool: asyncpg.Pool) -> dict[str, tuple[int, int, int]]:
    """Per source: (rows, rows of the first commit, rows of the second)."""
    rows = await pool.fetch(
        "select source, count(*)::int n, count(*) filter (where content like '%firstword%')::int a,"
        " count(*) filter (where content like '%secondword%')::int b from docs_section group by source")
    return {r["source"]: (r["n"], r["a"], r["b"]) for r in rows}


async def test_a_sync_killed_at_any_point_leaves_each_source_whole(
    pool, keyword_only, db_env: str, tmp_path: Path,
) -> None:
    """kill -9 of a sync process at random points of a batched sync of two sources (first commit:
    24 pages each, second: every page edited, some gone, some new): a reader polling all along
    sees each source at one commit only, and after the kill, the index is one of the two states
    with statistics equal to a rebuild; the next sync completes."""
    root = tmp_path / "repos"
    for name in ("one", "two"):
        make_docs_repo(root / name, _version_pages("first", 24))
    await _sync(pool, _source(root / "one", "one"), _source(root / "two", "two"))
    old = await _state(pool)
    assert old == {"one": (96, 96, 0), "two": (96, 96, 0)}
    first = {name: _head(root / name) for name in ("one", "two")}
    for name in ("one", "two"):
        for path in list((root / name / "docs").iterdir()):
            path.unlink()
        write_files(root / name / "docs", _version_pages("second", 30) | {"p00.md": _page("P0", "public",
                                                                                        "secondword", 0)})
        (root / name / "docs" / "p01.md").unlink()
        commit_all(root / name, "second")
    new = {"one": (113, 0, 113), "two": (113, 0, 113)}
    second = {name: _head(root / name) for name in ("one", "two")}

    rng = random.Random(34)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": db_env}
    outcomes = []
    for attempt in range(5):
        child = subprocess.Popen([sys.executable, "-c", _CHILD, str(root)], env=env, cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seen: set[tuple[tuple[str, tuple[int, int, int]], ...]] = set()
        # Poll until the child has staged some batches (random how many), reading all along.
        target = rng.randint(1, 60)
        while child.poll() is None:
            state = await _state(pool)
            seen.add(tuple(sorted(state.items())))
            staged = await pool.fetchval(
                "select count(*) from docs_section_stage s join docs_sync_generation g using (gen)"
                " where g.started_at = (select max(started_at) from docs_sync_generation)")
            if staged >= target:
                break
            await asyncio.sleep(0)
        if attempt == 4:
            child.wait(timeout=120)  # the last one runs to its end
        else:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
        final = await _state(pool)
        seen.add(tuple(sorted(final.items())))
        for seen_state in seen:
            for source, figures in seen_state:
                assert figures in (old[source], new[source]), (attempt, seen_state)
        # The commit a source was synced at is written in the switch's transaction: it names the
        # commit its rows are from, whenever the sync was killed.
        recorded = dict(await pool.fetch("select source, commit from docs_source_commit"))
        assert recorded == {source: (first if figures == old[source] else second)[source]
                            for source, figures in final.items()}, (attempt, final)
        assert await _stats(pool) == await _rebuilt(pool)
        assert await _fts_differences(pool) == 0
        outcomes.append(final)
        if final == new:
            break
    assert outcomes[0] == old and outcomes[-1] == new, outcomes  # killed before its switch at least once
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0


async def test_statistics_emptied_by_hand_are_rebuilt_by_the_next_sync_that_writes(
    pool, keyword_only, small_batches, tmp_path: Path, owner_database_url: str,
) -> None:
    """With no statistics but rows (a revision emptied them), updating only the touched rows would
    leave every other row uncounted: the switch is followed by the one full rebuild."""
    repo = make_docs_repo(tmp_path / "r", {f"p{i}.md": _page(f"P{i}", "public", "eta") for i in range(4)})
    await _sync(pool, _source(repo))
    owner = await asyncpg.connect(owner_database_url)
    try:
        await owner.execute("delete from docs_lexeme_stats; delete from docs_search_stats")
    finally:
        await owner.close()
    write_files(repo / "docs", {"p0.md": _page("P0", "public", "eta edited")})
    commit_all(repo, "edit")
    await _sync(pool, _source(repo))
    assert await _stats(pool) == await _rebuilt(pool)
    assert await _fts_differences(pool) == 0
    assert await pool.fetchval("select section_count from docs_search_stats") == 16


async def test_an_update_that_moves_no_input_keeps_the_search_vector(pool, keyword_only, tmp_path: Path) -> None:
    """A sync's metadata update rewrites title, heading and breadcrumb with each href, mostly to
    what they were: the row trigger keeps the vector then (no recompute), and recomputes it when
    one of its inputs moves."""
    repo = make_docs_repo(tmp_path / "r", {"k.md": _page("K", "public", "kiwi")})
    await _sync(pool, _source(repo))
    some = await pool.fetchval("select min(id) from docs_section")
    # A marker no recompute would give: kept by an update whose inputs are unchanged.
    await pool.execute("update docs_section set search_vector = 'marker:1A' where id = $1", some)
    await pool.execute("update docs_section set title = title, heading = heading, breadcrumb = breadcrumb,"
                       " href = href || '?v=2' where id = $1", some)
    assert await pool.fetchval("select search_vector::text from docs_section where id = $1", some) == "'marker':1A"
    await pool.execute("update docs_section set title = title || ' moved' where id = $1", some)
    assert "'move'" in await pool.fetchval("select search_vector::text from docs_section where id = $1", some)
    assert await _fts_differences(pool) == 0
    # An update that sets the vector with an input, even to what it was, gets the trigger's vector,
    # as an insert does: the trigger owns the column whenever an input is written.
    await pool.execute("update docs_section set title = title, search_vector = 'marker:1A' where id = $1", some)
    assert await pool.fetchval(
        "select search_vector = public.docs_section_search_vector(title, heading, breadcrumb, content)"
        " from docs_section where id = $1", some)
    assert await _fts_differences(pool) == 0


async def test_the_leg_table_follows_every_write_to_docs_section(
    pool, keyword_only, tmp_path: Path, owner_database_url: str,
) -> None:
    """docs_section_fts is kept by statement triggers, not by sync alone: a hand-made update
    of audiences, content or id, an upsert, a delete (as `index clear` does) and a truncate keep it equal to a rebuild, and the
    full-text leg finds what it says."""
    repo = make_docs_repo(tmp_path / "r", {f"g{i}.md": _page(f"G{i}", "public", f"zebra w{i}") for i in range(4)})
    await _sync(pool, _source(repo))
    assert await pool.fetchval("select count(*) from docs_section_fts") > 0
    assert await _fts_differences(pool) == 0
    some = await pool.fetchval("select min(id) from docs_section where content like '%g1word%'")
    await pool.execute("update docs_section set audiences = '{internal}' where id = $1", some)
    assert await _fts_differences(pool) == 0
    await pool.fetchval("select refresh_docs_search_stats()")  # a hand-made write: statistics by hand
    leg = "select id from search_docs_sections('g1word', 10, $1)"
    assert some not in [r["id"] for r in await pool.fetch(leg, ["public"])]
    assert some in [r["id"] for r in await pool.fetch(leg, ["internal"])]
    await pool.execute("update docs_section set content = content || ' quokka' where id = $1", some)
    await pool.execute("update docs_section set id = id || '-moved' where id = $1", some)
    assert await _fts_differences(pool) == 0
    await pool.fetchval("select refresh_docs_search_stats()")
    assert [r["id"] for r in await pool.fetch("select id from search_docs_sections('quokka', 10, null)")] == [
        some + "-moved"]
    await pool.execute(
        "insert into docs_section (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash)"
        " select id, source, page, title, heading, breadcrumb, href, content || ' wombat', audiences, 'x'"
        " from docs_section on conflict (id) do update set content = excluded.content")
    assert await _fts_differences(pool) == 0
    await pool.execute("delete from docs_section where content like '%g2word%'")
    assert await _fts_differences(pool) == 0
    owner = await asyncpg.connect(owner_database_url)  # truncate is the owner's: the app role may not
    try:
        await owner.execute("truncate public.docs_section")
    finally:
        await owner.close()
    assert await pool.fetchval("select count(*) from docs_section_fts") == 0
