"""The admin API over real HTTP: the real app, a real Postgres, git repositories made on the fly."""

from __future__ import annotations

import asyncio
import threading

import asyncpg
import httpx
import pytest

from app.config import get_settings
from tests.helpers import commit_all, git, make_docs_repo, wait_until, write_files

TOKEN = "t0ken-for-the-admin-tests-0123456789"
DOCS = {
    "widget.mdx": (
        "---\ntitle: Chat widget\npublic: true\n---\nThe widget adds a chat panel to any docs site.\n\n"
        "## Embed the widget\nAdd one script tag to your pages. The script tag loads widget.js from your "
        "docschat server.\n"
    ),
    "sync.mdx": (
        "---\ntitle: Syncing docs\npublic: true\n---\nSync keeps the index current.\n\n## Run a sync\n"
        "Run docschat sync after every merge. Unchanged chunks are skipped by content hash.\n"
    ),
    "runbook.mdx": "---\ntitle: On-call runbook\n---\nRestart the workers when the queue backs up.\n",
}


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def query(url: str, sql: str, *args):
    """One statement on its own connection, in a thread of its own (Playwright's loop may be running here)."""
    import concurrent.futures

    async def go():
        conn = await asyncpg.connect(url)
        try:
            return await conn.fetch(sql, *args)
        finally:
            await conn.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(go())).result()


@pytest.fixture
def docs_repo(tmp_path, monkeypatch):
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    monkeypatch.setenv("DOCS_REPO", str(repo))
    return repo


@pytest.fixture
def admin_env(monkeypatch, clean_db, docs_repo):
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    return clean_db


def wait_for_job(client: httpx.Client, job_id: str) -> dict:
    def finished():
        job = client.get(f"/admin/api/reindex/{job_id}", headers=auth()).json()["job"]
        return job if job["state"] != "running" else None

    return wait_until(finished, what=f"sync job {job_id} to finish")


def test_every_admin_path_is_404_without_a_token_configured(clean_db, monkeypatch, start_server) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for method, path in [("GET", "/admin"), ("GET", "/admin/admin.js"), ("GET", "/admin/api/status"),
                             ("GET", "/admin/api/test?q=widget"), ("GET", "/admin/api/gaps"),
                             ("DELETE", "/admin/api/gaps"), ("POST", "/admin/api/reindex"),
                             ("GET", "/admin/api/reindex/00000000-0000-0000-0000-000000000000")]:
            response = client.request(method, path, headers=auth())
            assert response.status_code == 404, (method, path, response.status_code)
    assert query(clean_db, "select count(*) from public.docs_sync_run")[0][0] == 0


def test_a_short_admin_token_is_refused_at_start(monkeypatch) -> None:
    from pydantic import ValidationError

    from app.config import Settings

    monkeypatch.setenv("ADMIN_TOKEN", "short")
    with pytest.raises(ValidationError, match="at least 16 characters"):
        Settings()
    monkeypatch.setenv("ADMIN_TOKEN", "  ")
    assert Settings().admin_token is None  # blank means unset: the console stays off


def test_wrong_or_missing_token_is_401_and_failures_are_rate_limited(admin_env, monkeypatch, start_server) -> None:
    monkeypatch.setenv("ADMIN_FAILURES_PER_HOUR", "3")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        page = client.get("/admin")  # the page itself asks for the token
        assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
        assert client.get("/admin/api/status", headers=auth()).status_code == 200
        missing = client.get("/admin/api/status")
        assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
        assert client.get("/admin/api/status", headers=auth(TOKEN + "x")).status_code == 401
        assert client.get("/admin/api/status", headers={"authorization": f"Basic {TOKEN}"}).status_code == 401
        # Three failures spent: even the right token waits now, so guessing gains nothing.
        blocked = client.get("/admin/api/status", headers=auth())
        assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) > 0
        assert client.post("/admin/api/reindex", headers=auth("nope-nope-nope-nope")).status_code == 429
    keys = [r["key"] for r in query(admin_env, "select key from public.docs_chat_limits")]
    assert keys and all(k.startswith("LIMITER/admin/") for k in keys) and not any("127.0.0.1" in k for k in keys)


def test_wrong_tokens_in_flight_at_once_get_no_more_comparisons_than_the_limit(
    admin_env, monkeypatch, start_server
) -> None:
    """The limit was read before the token was compared and spent after a wrong one: every request
    in flight passed the read, and a burst had 161 tokens compared against a limit of 10."""
    import concurrent.futures

    monkeypatch.setenv("ADMIN_FAILURES_PER_HOUR", "4")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(8):  # a right token gives its hit back: using the console spends nothing
            assert client.get("/admin/api/status", headers=auth()).status_code == 200

        def guess(n: int) -> int:
            return client.get("/admin/api/status", headers=auth(f"wrong-token-{n:010d}")).status_code

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            codes = list(pool.map(guess, range(48)))
    assert codes.count(401) == 4 and codes.count(429) == 44, codes


def test_a_right_token_refused_in_a_burst_does_not_lock_its_admin_out(admin_env, monkeypatch, start_server) -> None:
    """A refused hit stayed counted: after two typos, a few right-token requests at once (the console
    polls) filled the window, and every later right token got 429 for the rest of the hour."""
    import concurrent.futures

    monkeypatch.setenv("ADMIN_FAILURES_PER_HOUR", "3")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for typo in ("typo-typo-typo-typo-1", "typo-typo-typo-typo-2"):
            assert client.get("/admin/api/status", headers=auth(typo)).status_code == 401
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda _: client.get("/admin/api/status", headers=auth()).status_code, range(16)))
        assert set(codes) <= {200, 429} and 200 in codes
        assert client.get("/admin/api/status", headers=auth()).status_code == 200
        assert client.get("/admin/api/status", headers=auth("typo-typo-typo-typo-3")).status_code == 401
        assert client.get("/admin/api/status", headers=auth()).status_code == 429  # three wrong: the window is full


def test_status_counts_equal_the_database_and_the_cli(admin_env, docs_repo, start_server) -> None:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        started = client.post("/admin/api/reindex", headers=auth())
        assert started.status_code == 202, started.text
        job = wait_for_job(client, started.json()["job"]["id"])
        assert job["state"] == "ok", job
        status = client.get("/admin/api/status", headers=auth()).json()
    (source,) = status["sources"]
    pages, chunks = query(admin_env, "select count(distinct page), count(*) from public.docs_section")[0]
    assert (source["pages"], source["chunks"]) == (pages, chunks) == (3, 5)
    by_model = query(admin_env, "select coalesce(embedding_model, 'none'), count(*) from public.docs_section group by 1")
    assert source["chunks_by_model"] == {m: n for m, n in by_model}
    by_audience = query(admin_env, "select a, count(*) from public.docs_section, unnest(audiences) a group by 1")
    assert source["chunks_by_audience"] == {a: n for a, n in by_audience} == {"public": 4, "internal": 1}
    head = git(docs_repo, "rev-parse", "main").strip()
    assert source["synced_commit"] == head and source["up_to_date"]
    assert source["last_sync"]["result"] == "ok" and source["last_sync"]["trigger"] == "admin"
    assert source["last_sync"]["commit"] == head and source["last_sync"]["seconds"] >= 0
    assert status["totals"]["chunks"] == chunks
    size = query(admin_env, "select pg_database_size(current_database())")[0][0]
    assert 0.5 * size < status["database"]["size_bytes"] < 2 * size
    assert status["gaps"] == 0 and status["running_job"] is None
    assert status["scheduler"]["enabled"] is False
    assert status["provider"] == {"embedding_provider": "none", "embedding_model": None, "answerer": "extractive",
                                  "chat_model": None}

    from click.testing import CliRunner

    from app.cli import main

    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["status", "--json"])
    assert result.exit_code == 0, result.output
    import json

    cli = json.loads(result.output)
    assert [(s["name"], s["pages"], s["chunks"], s["synced_commit"]) for s in cli["sources"]] == [
        ("docs", pages, chunks, head)
    ]


def test_reindex_twice_at_once_answers_409_with_the_running_job(
    fake_gemini, clean_db, docs_repo, monkeypatch, start_server
) -> None:
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        response = client.post("/admin/api/reindex", headers=auth())
        assert response.status_code == 202, response.text
        first = wait_for_job(client, response.json()["job"]["id"])
        assert first["state"] == "ok"
        write_files(docs_repo / "docs", {"widget.mdx": DOCS["widget.mdx"] + "\n## Colors\nThe widget follows the theme.\n"})
        commit_all(docs_repo, "colors")
        fake_gemini.embed_gate = threading.Event()
        try:
            started = client.post("/admin/api/reindex", headers=auth(), json={})
            assert started.status_code == 202, started.text
            job_id = started.json()["job"]["id"]
            assert started.headers["location"] == f"/admin/api/reindex/{job_id}"
            wait_until(lambda: fake_gemini.embeds_waiting, what="the sync to reach the embedding step")
            second = client.post("/admin/api/reindex", headers=auth(), json={"source": "docs"})
            assert second.status_code == 409, second.text
            assert second.json()["error"] == "sync_running" and second.json()["job"]["id"] == job_id
            running = client.get(f"/admin/api/reindex/{job_id}", headers=auth()).json()["job"]
            assert running["state"] == "running" and running["sources"][0]["state"] == "running"
            assert running["progress"] == {"done": 0, "total": 1}
            # The chat keeps answering from the previous index while the sync waits.
            chat = client.post("/docs/chat", json={"message": "How do I embed the widget?"})
            assert chat.status_code == 200 and '"source-url"' in chat.text
        finally:
            fake_gemini.embed_gate.set()
        done = wait_for_job(client, job_id)
    assert done["state"] == "ok" and done["sources"][0]["report"]["embedded"] == 1
    runs = query(clean_db, "select state from public.docs_sync_run order by id")
    assert [r["state"] for r in runs] == ["ok", "ok"]  # the refused request recorded nothing


def test_reindex_rejects_bad_bodies_and_unknown_sources(admin_env, start_server) -> None:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for body in [b"not json", b"[1]", b'{"source": 3}', b'{"source": "docs", "x": 1}']:
            response = client.post("/admin/api/reindex", headers=auth(), content=body)
            assert response.status_code == 400, body
        unknown = client.post("/admin/api/reindex", headers=auth(), json={"source": "nope"})
        assert unknown.status_code == 400 and "no source named 'nope'" in unknown.json()["detail"]
        assert client.get("/admin/api/reindex/not-a-uuid", headers=auth()).status_code == 404
        missing = client.get("/admin/api/reindex/00000000-0000-0000-0000-000000000000", headers=auth())
        assert missing.status_code == 404
    assert query(admin_env, "select count(*) from public.docs_sync_run")[0][0] == 0


def test_a_broken_source_is_recorded_as_an_error(admin_env, monkeypatch, tmp_path, start_server) -> None:
    monkeypatch.setenv("BRANCH", "no-such-branch")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        job = wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        status = client.get("/admin/api/status", headers=auth()).json()
    assert job["state"] == "error" and "no-such-branch" in job["sources"][0]["error"]
    last = status["sources"][0]["last_sync"]
    assert last["result"] == "error" and "no-such-branch" in last["error"]
    assert "no-such-branch" in status["sources"][0]["head_error"]


def test_the_tester_explains_retrieval_and_shows_the_model_input(admin_env, start_server) -> None:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        result = client.get("/admin/api/test", params={"q": "embed the widget script tag"}, headers=auth()).json()
        public = client.get("/admin/api/test", params={"q": "restart the workers", "audience": "public"},
                            headers=auth()).json()
        everyone = client.get("/admin/api/test", params={"q": "restart the workers"}, headers=auth()).json()
        result_of_nonsense = client.get("/admin/api/test", params={"q": "xyzzy plugh"}, headers=auth()).json()
        # The chat's retrieval, answer check included: "Svelte" is in no page, so the chat refuses it.
        unsupported = client.get("/admin/api/test", params={"q": "embed the widget script tag in Svelte"},
                                 headers=auth()).json()
        assert client.get("/admin/api/test", headers=auth()).status_code == 400
        assert client.get("/admin/api/test", params={"q": "  "}, headers=auth()).status_code == 400
        bad = client.get("/admin/api/test", params={"q": "x", "audience": "<b>"}, headers=auth())
        assert bad.status_code == 400 and "audience" in bad.json()["detail"]
    explain = result["explain"]
    assert explain["legs"]["keyword"][0]["rank"] == 1 and explain["fused"][0]["ranks"]["keyword"] == 1
    assert explain["errors"] == {"vector": "no embedding provider is configured"}
    assert result["pages"][0]["title"] == "Chat widget"
    assert result["would_answer"] is True and 0 <= result["floor"] <= result["confidence"] <= 1
    assert "rule" in explain["confidence"]
    assert {p["reason"].split(":")[0] for p in explain["pages"]} <= {"kept", "dropped"}
    prompt = result["model_input"]["prompt"]
    assert prompt.startswith("<excerpts") and result["pages"][0]["excerpt"] in prompt
    assert result["model_input"]["excerpts"][0]["number"] == 1
    assert [p["title"] for p in everyone["pages"]] == ["On-call runbook"]
    nonsense = result_of_nonsense["model_input"]
    assert result_of_nonsense["would_answer"] is False and nonsense == {"excerpts": [], "prompt": ""}
    assert public["pages"] == [] and public["audiences"] == ["public"]
    assert result["answer_check"]["verdict"] == "answerable"
    # The check names what the docs lack and refuses nothing (issue 45): the tester shows the answer's input.
    assert unsupported["answer_check"]["verdict"] == "partly" and unsupported["answer_check"]["absent"] == ["Svelte"]
    assert unsupported["would_answer"] is True and unsupported["model_input"]["excerpts"]


def test_a_failed_embedding_is_recorded_and_the_index_stays(fake_gemini, clean_db, docs_repo, monkeypatch,
                                                             start_server) -> None:
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("EMBEDDING_MAX_RETRIES", "0")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])["state"] == "ok"
        before = query(clean_db, "select id, content_hash from public.docs_section order by id")
        write_files(docs_repo / "docs", {"new.mdx": "---\ntitle: New\naudience: public\n---\nA new page.\n"})
        commit_all(docs_repo, "new page")
        fake_gemini.fail_statuses = [500] * 20
        job = wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        status = client.get("/admin/api/status", headers=auth()).json()
    assert job["state"] == "error" and "500" in job["sources"][0]["error"]
    assert query(clean_db, "select id, content_hash from public.docs_section order by id") == before
    (source,) = status["sources"]
    assert source["last_sync"]["result"] == "error" and source["last_sync"]["error"] == job["sources"][0]["error"]
    assert source["synced_commit"] != source["head_commit"] and not source["up_to_date"]
    assert status["running_job"] is None


HOSTILE_GAP = '<img src=x onerror="window.__pwned=1"> xyzzy plugh'


def ask_unanswerable(client: httpx.Client, database_url: str) -> None:
    """Questions the docs cannot answer, through the real chat route (gaps are recorded after the reply)."""
    for question in ["What is the capital of France?", "what is the CAPITAL of france", HOSTILE_GAP]:
        response = client.post("/docs/chat", json={"message": question})
        assert response.status_code == 200 and '"source-url"' not in response.text
    wait_until(lambda: query(database_url, "select coalesce(sum(count), 0) from public.docs_chat_gap")[0][0] == 3,
               what="the gaps to be recorded")


def test_gaps_are_listed_grouped_counted_and_cleared(admin_env, monkeypatch, start_server) -> None:
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "100")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        ask_unanswerable(client, admin_env)
        gaps = client.get("/admin/api/gaps", headers=auth()).json()["gaps"]
        status = client.get("/admin/api/status", headers=auth()).json()
        in_database = query(admin_env, "select count(*) from public.docs_chat_gap")[0][0]
        assert client.delete("/admin/api/gaps", headers=auth("x" * 20)).status_code == 401
        cleared = client.delete("/admin/api/gaps", headers=auth()).json()
        after = client.get("/admin/api/gaps", headers=auth()).json()["gaps"]
    assert [(g["count"], g["refused"]) for g in gaps] == [(2, True), (1, True)]
    assert gaps[0]["question"].lower().startswith("what is the capital") and gaps[1]["question"] == HOSTILE_GAP
    assert status["gaps"] == in_database == 2
    assert cleared == {"deleted": 2} and after == []
