"""Sync against a real Postgres, with the real google-genai client talking to a local fake Gemini."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from app.config import get_settings
from app.corpus.compose import DocsSource
from app.embeddings.base import pad_vector
from app.embeddings.cache import EmbeddingCache, cache_path
from app.embeddings.providers import get_embedding_provider
from app.errors import EmbeddingError
from app.indexing.sync_apply import SYNC_LOCK_KEY, SyncBusyError
from tests.fake_gemini import fake_vector
from tests.helpers import (
    SyncSourceError,
    commit_all,
    docschat_in_process,
    git,
    make_docs_repo,
    sync_corpus,
    write_files,
)

PAGES = {
    "index.mdx": "---\ntitle: Home\npublic: true\n---\nWelcome.\n\n## Start\nBegin here.\n",
    "guides/widget.mdx": (
        "---\ntitle: Widget\npublic: true\n---\nEmbed the chat.\n\n"
        + "\n\n".join(f"## Part {i}\nSection {i} about the widget." for i in range(30))
    ),
    "guides/secret.mdx": "---\ntitle: Internal\n---\nPrivate notes.\n\n## Ops\nRunbook.\n",
}


async def _rows(conn: asyncpg.Connection) -> dict[str, asyncpg.Record]:
    rows = await conn.fetch("select id, xmin::text as xmin, content_hash, embedding_model, 'public' = any(audiences) as public"
        " from docs_section")
    return {r["id"]: r for r in rows}


async def _sync(pool, repo: Path, **kwargs):
    settings = get_settings()
    cache = EmbeddingCache(cache_path(settings.docschat_home))
    try:
        return await sync_corpus(
            pool, DocsSource(repo, "main", "docs"), settings, get_embedding_provider(settings), cache=cache, **kwargs
        )
    finally:
        cache.close()


async def test_batches_of_20_and_task_types_on_the_wire(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    report = await _sync(pool, repo)
    calls = fake_gemini.embed_calls()
    sizes = [len(c["body"]["requests"]) for c in calls]
    assert report.new == report.chunks == sum(sizes) and max(sizes) == 20 and all(s <= 20 for s in sizes)
    for call in calls:
        for request in call["body"]["requests"]:
            assert request["taskType"] == "RETRIEVAL_DOCUMENT"
            assert request["outputDimensionality"] == 768
    async with pool.acquire() as conn:
        rows = await _rows(conn)
    assert len(rows) == report.chunks
    assert {r["embedding_model"] for r in rows.values()} == {"gemini-embedding-001@768"}
    assert rows["docs:guides/secret.mdx"]["public"] is False and rows["docs:index.mdx"]["public"] is True


async def test_unchanged_resync_makes_no_calls_and_no_writes(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, repo)
    async with pool.acquire() as conn:
        before = await _rows(conn)
    calls_before = len(fake_gemini.requests)
    report = await _sync(pool, repo)
    async with pool.acquire() as conn:
        after = await _rows(conn)
    assert len(fake_gemini.requests) == calls_before
    assert (report.new, report.changed, report.deleted, report.embedded) == (0, 0, 0, 0)
    assert report.unchanged == report.chunks
    assert {k: r["xmin"] for k, r in after.items()} == {k: r["xmin"] for k, r in before.items()}


async def test_editing_one_section_reembeds_exactly_that_chunk(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, repo)
    edited = PAGES["guides/widget.mdx"].replace("Section 7 about", "Section 7, rewritten, about")
    write_files(repo / "docs", {"guides/widget.mdx": edited})
    commit_all(repo, "edit")
    calls_before = len(fake_gemini.embed_calls())
    report = await _sync(pool, repo)
    new_calls = fake_gemini.embed_calls()[calls_before:]
    texts = [r["content"]["parts"][0]["text"] for c in new_calls for r in c["body"]["requests"]]
    assert report.changed == 1 and report.embedded == 1 and len(texts) == 1 and "rewritten" in texts[0]


async def test_deleting_a_page_deletes_its_rows(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    first = await _sync(pool, repo)
    git(repo, "rm", "-q", "docs/guides/widget.mdx")
    commit_all(repo, "remove")
    report = await _sync(pool, repo)
    async with pool.acquire() as conn:
        rows = await _rows(conn)
    assert report.deleted == 31 and len(rows) == first.chunks - 31
    assert not any(i.startswith("docs:guides/widget.mdx") for i in rows)


async def test_provider_failure_leaves_index_intact_and_names_the_cause(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, repo)
    async with pool.acquire() as conn:
        before = await _rows(conn)
    write_files(repo / "docs", {"new.mdx": "---\ntitle: New\n---\n" + "\n\n".join(f"## N{i}\nx{i}" for i in range(30))})
    git(repo, "rm", "-q", "docs/index.mdx")
    commit_all(repo, "change")
    fake_gemini.fail_statuses = [429] * 100
    fake_gemini.retry_after = "0"
    result = await asyncio.to_thread(docschat_in_process, "sync", "--repo", str(repo), "--json")
    assert result.returncode == 1
    assert "429" in result.stderr and "quota" in result.stderr.lower()
    async with pool.acquire() as conn:
        after = await _rows(conn)
    assert {k: r["xmin"] for k, r in after.items()} == {k: r["xmin"] for k, r in before.items()}


@pytest.fixture(autouse=True)
def _db_for_subprocess(db_env: str) -> None:
    """The CLI subprocesses read DATABASE_URL from the environment."""


async def test_second_sync_waits_or_exits_clearly(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    async with pool.acquire() as holder:
        async with holder.transaction():
            await holder.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)
            with pytest.raises(SyncBusyError, match="another sync"):
                await _sync(pool, repo)


async def test_embed_cache_spares_the_provider_and_survives_corruption(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    first = await _sync(pool, repo)
    async with pool.acquire() as conn:
        await conn.execute("delete from docs_section")
    calls = len(fake_gemini.embed_calls())
    second = await _sync(pool, repo)
    assert second.cache_hits == first.chunks and second.embedded == 0 and len(fake_gemini.embed_calls()) == calls
    path = cache_path(get_settings().docschat_home)
    path.write_bytes(b"this is not a sqlite file" * 100)
    async with pool.acquire() as conn:
        await conn.execute("delete from docs_section")
    third = await _sync(pool, repo)
    assert third.embedded == first.chunks
    assert any("unreadable" in w for w in third.warnings)


async def test_changing_the_model_reembeds_every_row(pool, fake_gemini, tmp_path: Path, monkeypatch) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    first = await _sync(pool, repo)
    monkeypatch.setenv("GEMINI_EMBEDDING_MODEL", "text-embedding-004")
    get_settings.cache_clear()
    report = await _sync(pool, repo)
    assert report.changed == first.chunks and report.embedded == first.chunks
    async with pool.acquire() as conn:
        assert {r["embedding_model"] for r in (await _rows(conn)).values()} == {"text-embedding-004@768"}


def test_zero_padding_keeps_cosine() -> None:
    a, b = [0.3, -1.2, 0.5, 2.0], [1.0, 0.4, -0.7, 0.2]

    def cosine(x, y):
        dot = sum(p * q for p, q in zip(x, y, strict=True))
        return dot / (math.sqrt(sum(p * p for p in x)) * math.sqrt(sum(q * q for q in y)))

    assert len(pad_vector(a)) == 768
    assert math.isclose(cosine(a, b), cosine(pad_vector(a), pad_vector(b)), rel_tol=1e-12)


def test_local_model_embeds_offline() -> None:
    import asyncio

    from app.embeddings.local import LocalEmbeddingProvider, local_model_installed

    if not local_model_installed():
        pytest.skip("the local model extra is not installed")
    provider = LocalEmbeddingProvider()
    docs = asyncio.run(provider.embed_documents(["How to embed the chat widget", "Refund policy for invoices"]))
    query = asyncio.run(provider.embed_query("embedding the widget on my site"))
    assert len(query) == 768 and all(v == 0.0 for v in query[384:])
    similarity = [sum(p * q for p, q in zip(query, d, strict=True)) for d in docs]
    assert similarity[0] > similarity[1]


WORKFLOWS = Path(__file__).resolve().parent.parent / ".github" / "workflows"


@pytest.mark.parametrize("workflow", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_workflow_files_match_githubs_schema(workflow: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_sync_cli_json_summary(tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    result = docschat_in_process("sync", "--repo", str(repo), "--json", env={"EMBEDDING_PROVIDER": "none"})
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"pages", "chunks", "new", "changed", "unchanged", "deleted", "embedded", "cache_hits", "seconds"} <= set(summary)
    assert summary["pages"] == 3 and summary["new"] == summary["chunks"]
    import asyncio

    async def count() -> int:
        conn = await asyncpg.connect(os.environ["DATABASE_URL"])
        try:
            n = await conn.fetchval("select count(*) from docs_section where embedding is null")
            await conn.execute("delete from docs_section; delete from docs_lexeme_stats; delete from docs_search_stats")
            return n
        finally:
            await conn.close()

    assert asyncio.run(count()) == summary["chunks"]


async def test_bad_key_is_a_clear_error(pool, fake_gemini, tmp_path: Path, monkeypatch) -> None:
    from app.errors import EmbeddingError

    monkeypatch.setenv("GEMINI_API_KEY", "bad-key")
    get_settings.cache_clear()
    repo = make_docs_repo(tmp_path / "r", PAGES)
    with pytest.raises(EmbeddingError, match="rejected the API key.*GEMINI_API_KEY"):
        await _sync(pool, repo)
    assert len(fake_gemini.embed_calls()) == 1  # a bad key is not retried


async def test_retry_after_is_honoured(pool, fake_gemini, tmp_path: Path) -> None:
    import time

    repo = make_docs_repo(tmp_path / "r", {"a.mdx": "---\ntitle: A\n---\nx\n"})
    fake_gemini.fail_statuses = [429]
    fake_gemini.retry_after = "1"
    started = time.perf_counter()
    report = await _sync(pool, repo)
    assert report.embedded == 1 and time.perf_counter() - started >= 1.0
    assert len(fake_gemini.embed_calls()) == 2


async def test_a_page_of_one_enormous_paragraph_is_indexed_in_pieces(pool, fake_gemini, tmp_path: Path) -> None:
    """A 2 MB paragraph (a pasted log, a generated list) was one chunk: Postgres refused its
    tsvector (over 1 MB) and the whole source failed to sync, its other pages with it."""
    from app.corpus.chunker import MAX_BLOCK_CHARS

    words = " ".join(f"w{n:07x}" for n in range(250_000))  # distinct words: a tsvector of ~3 MB
    repo = make_docs_repo(tmp_path / "r", PAGES | {"log.md": f"---\ntitle: Log\npublic: true\n---\n## Dump\n\n{words}\n"})
    report = await _sync(pool, repo)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'log.md' order by id")
        home = await conn.fetchval("select count(*) from docs_section where page = 'index.mdx'")
    assert home == 2 and report.chunks > len(rows) > 100  # the other pages are there too
    assert max(len(r["content"]) for r in rows) <= MAX_BLOCK_CHARS
    indexed = sorted(w for r in rows for w in r["content"].split() if w.startswith("w"))
    assert indexed == sorted(words.split())  # every word, once


async def test_headings_and_paths_longer_than_postgres_indexes_take(pool, fake_gemini, tmp_path: Path) -> None:
    """A 6,000-character heading made an id Postgres cannot index (over 2,704 bytes) and failed
    the sync of the whole source; now the id is bounded, and a path too long for any id is
    skipped with a warning naming it."""
    # Words that do not compress: Postgres compresses a long key before it measures it.
    heading = " ".join(hashlib.sha256(str(n).encode()).hexdigest()[:10] for n in range(700))
    deep = "/".join(["d" * 240] * 5) + "/page.md"  # 1,200 bytes: longer than an id may be
    pages = PAGES | {
        "long.md": f"---\ntitle: Long\npublic: true\n---\n## {heading}\n\nUnder the long heading.\n\n## {heading} again\n\nSecond.\n",
        deep: "---\ntitle: Deep\npublic: true\n---\n## Deep\n\nText.\n",
    }
    repo = make_docs_repo(tmp_path / "r", pages)
    report = await _sync(pool, repo)
    async with pool.acquire() as conn:
        ids = [r["id"] for r in await conn.fetch("select id from docs_section where page = 'long.md'")]
        home = await conn.fetchval("select count(*) from docs_section where page = 'index.mdx'")
    assert home == 2 and len(ids) == len(set(ids)) >= 2  # the source synced; two headings, two ids
    assert all(len(i.encode()) <= 1000 for i in ids)
    assert any("d" * 40 in w and f"a path of {len(deep)} bytes" in w for w in report.warnings), report.warnings
    again = await _sync(pool, repo)
    assert again.new == again.changed == again.deleted == 0  # the bounded ids are stable


async def test_a_text_longer_than_the_model_takes_is_embedded_from_its_start(pool, fake_openai, tmp_path: Path,
                                                                            monkeypatch) -> None:
    """OpenAI-compatible servers refuse a text longer than their model takes (HTTP 400) instead of
    truncating it: one long code block failed the whole sync. Now the batch is embedded text by
    text, the refused one from its first half (then quarter...), with a warning naming it."""
    monkeypatch.setenv("EMBEDDING_PROVIDER", "openai")
    get_settings.cache_clear()
    fake_openai.max_input_chars = 2_000
    code = "\n".join(f"value_{n} = compute({n})" for n in range(300))  # ~6,500 characters, one block
    repo = make_docs_repo(tmp_path / "r", PAGES | {"big.md": f"---\ntitle: Big\npublic: true\n---\n## Listing\n\n```python\n{code}\n```\n"})
    report = await _sync(pool, repo)
    assert any("Big › Listing" in w and "first" in w for w in report.warnings), report.warnings
    async with pool.acquire() as conn:
        missing = await conn.fetchval("select count(*) from docs_section where embedding is null")
        listing = await conn.fetchrow("select embedding::text as e from docs_section where content like '%value_299 %'")
    assert missing == 0 and listing is not None  # every chunk has a vector; the text is indexed whole
    sent = [t for c in fake_openai.calls("/v1/embeddings") for t in c["body"]["input"] if "value_0 " in t]
    *refused, accepted = sent  # in its batch, alone, halved...: each a start of the one before, till one fits
    assert all(len(t) > 2_000 for t in refused) and len(accepted) <= 2_000 and len(refused) >= 2
    assert all(later == earlier[: len(later)] for earlier, later in zip(sent, sent[1:], strict=False))
    assert json.loads(listing["e"]) == pytest.approx(pad_vector(fake_vector(accepted, 768)), abs=1e-6)

    fake_openai.max_input_chars = 50  # refused whatever its length: a clear error naming the chunk, index intact
    write_files(repo / "docs", {"new.md": "---\ntitle: New\npublic: true\n---\n## Fresh\n\n" + "word " * 100})
    commit_all(repo, "new page")
    with pytest.raises(EmbeddingError, match="refuses the chunk 'New › Fresh' even cut to"):
        await _sync(pool, repo)
    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from docs_section where page = 'new.md'") == 0
        assert await conn.fetchval("select count(*) from docs_section where content like '%value_299 %'") == 1


async def test_a_file_named_like_a_section_cannot_take_its_row(pool, fake_gemini, tmp_path: Path) -> None:
    """`x.md#y.md` made the id of x.md's section {#y.md}: both chunks wrote one row, and a later
    sync gave the internal section's text the public page's audience (found by adversarial review)."""
    from app.corpus.chunker import drop_duplicate_ids
    from app.corpus.compose import compose_files

    secret = "---\ntitle: X\n---\nIntro.\n\n## Keys {#y.md}\n\nThe root password is okapi-hunter.\n"
    pages = {"x.md": secret, "x.md#y.md": "---\ntitle: Y\npublic: true\n---\n## Hello\n\nPublic words.\n"}
    repo = make_docs_repo(tmp_path / "r", PAGES | pages)
    report = await _sync(pool, repo)
    write_files(repo / "docs", {"x.md": secret.replace("okapi-hunter", "okapi-hunter-2")})
    commit_all(repo, "edit the secret")
    again = await _sync(pool, repo)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, audiences, content from docs_section where content like '%okapi%'")
    assert [(list(r["audiences"]), "okapi-hunter-2" in r["content"]) for r in rows] == [(["internal"], True)]
    assert any("x.md#y.md" in w and "cannot be linked" in w for w in report.warnings + again.warnings)
    # The last guard before rows are written: one id twice keeps the first, with a warning.
    first, second = compose_files(PAGES, get_settings()).chunks[:2]
    kept, warnings = drop_duplicate_ids([first, second, first])
    assert kept == [first, second] and len(warnings) == 1 and first.id in warnings[0]


async def test_a_broken_repository_keeps_the_rows_and_names_the_problem(pool, fake_gemini, tmp_path: Path) -> None:
    """`docs` committed as a file read as an empty folder and deleted every row, status "ok"; a
    blob missing from a damaged clone raised IndexError out of the sync."""
    import shutil

    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, repo)
    async with pool.acquire() as conn:
        before = await conn.fetchval("select count(*) from docs_section")
    shutil.rmtree(repo / "docs")
    (repo / "docs").write_text("not a folder\n")
    commit_all(repo, "docs becomes a file")
    with pytest.raises(SyncSourceError, match="'docs' is a file .* not a folder of docs"):
        await _sync(pool, repo)
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    write_files(repo / "docs", {"new.md": "---\ntitle: New\npublic: true\n---\n## Fresh\n\nNew words.\n"})
    commit_all(repo, "a new page")
    blob = git(repo, "rev-parse", "HEAD:docs/new.md").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # a damaged clone
    with pytest.raises(SyncSourceError, match="cannot read 'new.md'"):
        await _sync(pool, repo)
    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from docs_section") == before
