"""Feedback on answers, the way out (HANDOFF_URL), status parts and code links, over real HTTP against
the real app, a real Postgres and the fake Gemini."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from app.chat.tools import UNAVAILABLE_INDEX, SearchDocsTool, ToolBox, ToolStatus
from app.config import get_settings
from tests.helpers import CliRun, docschat_in_process, make_docs_repo, parse_sse, seed_docs
from tests.test_admin import TOKEN, auth, query
from tests.test_chat import DOCS

REPO_ROOT = Path(__file__).resolve().parent.parent


def _ask(client: httpx.Client, question: str) -> list[dict | str]:
    response = client.post("/docs/chat", json={"message": question})
    assert response.status_code == 200, response.text
    return parse_sse(response.text)


def _answer_after_one_search(fake_gemini, clean_db, start_server, question: str) -> str:
    """The raw stream body of a turn whose model searches once ("run a sync"), then answers."""
    seed_docs(clean_db, DOCS)
    fake_gemini.replies = [
        [{"functionCall": {"name": "search_docs", "args": {"query": "run a sync"}}}],
        [{"text": "Run docschat sync [1]."}],
    ]
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        response = client.post("/docs/chat", json={"message": question})
    assert response.status_code == 200, response.text
    return response.text


def _start(parts: list) -> str:
    return next(p for p in parts if isinstance(p, dict) and p["type"] == "start")["messageId"]


def _finish(parts: list) -> dict:
    return next(p for p in parts if isinstance(p, dict) and p["type"] == "finish")


def _rate(client: httpx.Client, message_id: str, rating: str, comment: str | None = None) -> httpx.Response:
    body = {"messageId": message_id, "rating": rating, **({"comment": comment} if comment is not None else {})}
    return client.post("/docs/chat/feedback", json=body)


def test_feedback_is_stored_against_the_answer_by_its_own_session_only(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = _ask(client, "How do I embed the widget with a script tag?")
        message_id = _start(parts)
        # The history names the answer by the same id the stream gave it.
        messages = client.get("/docs/chat").json()["messages"]
        assert [m.get("id") for m in messages] == [None, message_id]

        assert _rate(client, message_id, "up").json() == {"recorded": True, "handoff": None}
        rows = query(offline, "select * from docs_chat_feedback")
        assert len(rows) == 1 and rows[0]["rating"] == 1 and rows[0]["comment"] is None
        # Row-level security on, as on every docschat table (the app role gets its policy from
        # docs_grant_app_role; TEST_LIMITED_ROLE=1 runs this file as that role).
        assert query(offline, "select relrowsecurity from pg_class where oid = 'public.docs_chat_feedback'::regclass")[0][0]
        # Only the rating, the comment and when: nothing about who (no IP, no session, no agent).
        assert set(rows[0].keys()) == {"message_id", "rating", "comment", "created_at", "updated_at"}
        answer = query(offline, "select id, role from docs_chat_message where message_key = $1", message_id)
        assert rows[0]["message_id"] == answer[0]["id"] and answer[0]["role"] == "assistant"

        # A change of mind replaces the rating; the comment is kept when a later rating has none.
        assert _rate(client, message_id, "down", "  It did not show the script tag.\x00 ").status_code == 200
        assert _rate(client, message_id, "down").status_code == 200
        (row,) = query(offline, "select rating, comment from docs_chat_feedback")
        assert (row["rating"], row["comment"]) == (-1, "It did not show the script tag.")
        mine = "select rating from docs_chat_feedback f join docs_chat_message m on m.id = f.message_id where m.message_key = $1"

        # Another browser cannot rate this session's answer, with no cookie or with a session of its own.
        with httpx.Client(base_url=server.url, timeout=30) as stranger:
            refused = _rate(stranger, message_id, "up")
            assert refused.status_code == 404 and refused.json()["error"] == "not_found"
            own = _start(_ask(stranger, "How do I run a sync?"))
            assert _rate(stranger, message_id, "up").status_code == 404
            assert _rate(stranger, own, "up").status_code == 200
            assert _rate(client, own, "down").status_code == 404  # nor this session the stranger's
        assert _rate(client, "0" * 32, "up").status_code == 404

        for body, status in [
            (b"{", 400), (b"[]", 400), (json.dumps({"messageId": message_id}).encode(), 400),
            (json.dumps({"messageId": message_id, "rating": "meh"}).encode(), 400),
            (json.dumps({"messageId": message_id, "rating": {}}).encode(), 400),  # found by schemathesis: a 500
            (json.dumps({"messageId": ["x"], "rating": ["up"]}).encode(), 400),
            (json.dumps({"messageId": "../x", "rating": "up"}).encode(), 400),
            (json.dumps({"messageId": message_id, "rating": "up", "comment": 5}).encode(), 400),
            (b"x" * 9000, 400),
        ]:
            response = client.post("/docs/chat/feedback", content=body, headers={"content-type": "application/json"})
            assert response.status_code == status and response.json()["detail"], (body[:40], response.text)
        form = client.post("/docs/chat/feedback", content=b"messageId=x&rating=up",
                           headers={"content-type": "application/x-www-form-urlencoded"})
        assert form.status_code == 415
        assert query(offline, mine, message_id)[0]["rating"] == -1  # neither the stranger nor a bad request changed it

        # Clear Chat deletes the session, its messages and their feedback.
        assert client.delete("/docs/chat").json() == {"deleted": True}
    assert query(offline, mine, message_id) == []  # this session's feedback went with it
    assert [r["rating"] for r in query(offline, mine, own)] == [1]  # the stranger's stays


def test_feedback_has_its_own_rate_limit(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("FEEDBACK_PER_HOUR", "2")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "3")
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        message_id = _start(_ask(client, "How do I embed the widget?"))
        assert [_rate(client, message_id, r).status_code for r in ("up", "down")] == [200, 200]
        limited = _rate(client, message_id, "up")
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
        assert limited.json()["error"] == "rate_limited"
        # Its own limit: questions are still counted apart (1 of 3 used).
        assert client.post("/docs/chat", json={"message": "Run a sync"}).status_code == 200
    (row,) = query(offline, "select rating from docs_chat_feedback")
    assert row["rating"] == -1


def test_the_feedback_route_is_documented_in_the_schema(offline, start_server) -> None:
    server = start_server()
    schema = httpx.get(server.url + "/schema/openapi.json", timeout=30).json()
    operation = schema["paths"]["/docs/chat/feedback"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["messageId", "rating"] and body["properties"]["rating"]["enum"] == ["up", "down"]
    assert {"200", "400", "404", "415", "429", "503"} <= set(operation["responses"])
    assert "Retry-After" in operation["responses"]["429"]["headers"]


def test_handoff_after_a_refusal_and_a_thumbs_down_and_nothing_when_unset(offline, start_server, monkeypatch) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        refused = _ask(client, "What's a good recipe for banana bread?")
        assert _finish(refused)["messageMetadata"]["would_answer"] is False
        assert "handoff" not in _finish(refused)["messageMetadata"]  # unset: nothing changes
        assert _rate(client, _start(refused), "down").json() == {"recorded": True, "handoff": None}
    server.stop()

    monkeypatch.setenv("HANDOFF_URL", "https://forum.example.com/c/help")
    monkeypatch.setenv("HANDOFF_TEXT", "Ask on the forum")
    server = start_server()
    handoff = {"url": "https://forum.example.com/c/help", "text": "Ask on the forum"}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        refused = _ask(client, "What's a good recipe for banana bread?")
        assert _finish(refused)["messageMetadata"]["handoff"] == handoff
        answered = _ask(client, "How do I embed the widget with a script tag?")
        assert _finish(answered)["messageMetadata"]["would_answer"] is True
        assert "handoff" not in _finish(answered)["messageMetadata"]  # covered: no way out offered
        assert _rate(client, _start(answered), "up").json()["handoff"] is None
        assert _rate(client, _start(answered), "down").json()["handoff"] == handoff


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "//evil.example/x", "https:evil.example", "ftp://x.example",
                                 # Sent to every visitor, and the widget would not draw them (safeUrl).
                                 "https://user:secret@forum.example/x", "https://forum.example/\x00",
                                 "https://forum.example/\u2028x", "https://forum.example/\u00a0x"])
def test_a_handoff_url_that_is_not_an_absolute_http_url_is_refused(bad, monkeypatch) -> None:
    from app.config import Settings

    with pytest.raises(ValueError, match="handoff_url"):
        Settings(handoff_url=bad)


def test_feedback_in_the_admin_api_and_the_cli(offline, start_server, monkeypatch, db_env) -> None:
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        good = _start(_ask(client, "How do I embed the widget with a script tag?"))
        bad = _start(_ask(client, "How do I run a sync?"))
        _rate(client, good, "up")
        _rate(client, bad, "down", "Which command exactly?")
        data = client.get("/admin/api/feedback", headers=auth()).json()
        assert client.get("/admin/api/feedback").status_code == 401
    assert data["summary"] == {"up": 1, "down": 1}
    assert [(f["rating"], f["question"], f["comment"]) for f in data["feedback"]] == [
        ("down", "How do I run a sync?", "Which command exactly?"),
        ("up", "How do I embed the widget with a script tag?", None),
    ]

    def cli(*args: str) -> CliRun:
        return docschat_in_process("feedback", *args, env={"DATABASE_URL": db_env})

    lines = [json.loads(line) for line in cli("--json", "--since", "7d").stdout.splitlines()]
    assert [(f["rating"], f["question"]) for f in lines] == [("down", "How do I run a sync?"),
                                                             ("up", "How do I embed the widget with a script tag?")]
    table = cli()
    assert table.returncode == 0 and "1 up, 1 down" in table.stdout and "Which command exactly?" in table.stdout
    query(offline, "update docs_chat_feedback set updated_at = now() - interval '3 days' where rating = 1")
    assert [json.loads(x)["rating"] for x in cli("--json", "--since", "1d").stdout.splitlines()] == ["down"]
    bad_since = cli("--since", "forever")
    assert bad_since.returncode == 2 and "--since" in bad_since.stderr


# --- status parts ------------------------------------------------------------------------------


def test_the_stream_says_what_it_does_and_still_parses_without_knowing_status_parts(
    fake_gemini, clean_db, start_server
) -> None:
    parts = parse_sse(_answer_after_one_search(fake_gemini, clean_db, start_server,
                                               "How do I embed the widget with a script tag?"))
    statuses = [p["data"]["text"] for p in parts if isinstance(p, dict) and p["type"] == "data-status"]
    assert statuses[:2] == ["Searching the documentation", "Writing the answer"], statuses
    assert statuses[2:] == ["Searching the documentation for “run a sync”", "Found 1 section"], statuses
    assert all(p["transient"] is True for p in parts if isinstance(p, dict) and p["type"] == "data-status")
    # The tool's captions come while it works: after the guides, before the text that uses its find.
    kinds = [p if isinstance(p, str) else p["type"] for p in parts]
    said = [i for i, p in enumerate(parts) if isinstance(p, dict) and p.get("data", {}).get("text") == "Found 1 section"]
    assert kinds.index("source-url") < said[0] < kinds.index("text-delta")

    # A client that knows no data parts skips them and reads the protocol it knows, unchanged.
    known = [p for p in parts if isinstance(p, str) or not p["type"].startswith("data-")]
    known_kinds = [p if isinstance(p, str) else p["type"] for p in known]
    assert known_kinds[0] == "start" and known_kinds[-2:] == ["finish", "[DONE]"]
    assert set(known_kinds) <= {"start", "source-url", "text-start", "text-delta", "text-end", "finish", "[DONE]"}
    assert "".join(p["delta"] for p in known if isinstance(p, dict) and p["type"] == "text-delta") == (
        "Run docschat sync [1].")


AI_SDK = os.environ.get("DOCSCHAT_AI_SDK_DIR")  # a folder whose node_modules holds the `ai` package (v5)


@pytest.mark.skipif(not AI_SDK or shutil.which("node") is None,
                    reason="set DOCSCHAT_AI_SDK_DIR to a folder with `npm install ai@5` to check with the AI SDK")
def test_the_ai_sdk_reads_the_stream_and_keeps_status_parts_out_of_the_message(
    fake_gemini, clean_db, start_server
) -> None:
    """The AI SDK's own reader (readUIMessageStream, as useChat) over a real stream body."""
    body = _answer_after_one_search(fake_gemini, clean_db, start_server, "How do I embed the widget?")
    script = """
const { readUIMessageStream } = require('ai');
const body = require('fs').readFileSync(0, 'utf8');
const chunks = body.split('\\n\\n').filter(b => b.startsWith('data: ') && b !== 'data: [DONE]')
  .map(b => JSON.parse(b.slice(6)));
const stream = new ReadableStream({ start(c) { chunks.forEach(x => c.enqueue(x)); c.close(); } });
(async () => {
  let last;
  for await (const message of readUIMessageStream({ stream })) last = message;
  console.log(JSON.stringify(last));
})().catch(e => { console.error(e); process.exit(1); });
"""
    result = subprocess.run(["node", "-e", script], input=body, capture_output=True, text=True, timeout=60, cwd=AI_SDK)
    assert result.returncode == 0, result.stderr
    message = json.loads(result.stdout)
    types = [p["type"] for p in message["parts"]]
    assert "text" in types and "source-url" in types and not any(t.startswith("data-") for t in types), types
    assert message["metadata"]["would_answer"] is True


async def test_a_search_tool_that_cannot_reach_the_index_says_so(pool, db_env) -> None:
    """The real retriever on a closed pool: the tool's failure is a status the reader sees."""
    from app.chat.turn import excerpt_bounds
    from app.db.pool import create_pool
    from app.search.retrieve import build_retriever

    settings = get_settings()
    assert settings.database_url
    broken = await create_pool(settings.database_url)
    retriever = build_retriever(broken, settings)
    await broken.close()
    box = ToolBox([SearchDocsTool(retriever, excerpt_bounds(settings), settings.docs_base_url, {})],
                  max_calls=2, timeout_seconds=5)
    outcome = await box.run("search_docs", {"query": "rotate an API key"})
    assert outcome.response["available"] is False
    said = [box.statuses.get_nowait() for _ in range(box.statuses.qsize())]
    assert said == [ToolStatus("Searching the documentation for “rotate an API key”"),
                    ToolStatus(UNAVAILABLE_INDEX, "unavailable")]


async def test_statuses_come_between_events_as_they_are_said() -> None:
    from app.chat.tools import with_statuses

    box = ToolBox([], max_calls=1, timeout_seconds=1)
    release = asyncio.Event()

    async def events():
        yield "a"
        box.statuses.put_nowait(ToolStatus("working on b"))
        await release.wait()  # the status must come out while the answerer still waits
        yield "b"

    merged = with_statuses(events(), box)
    assert await anext(merged) == "a"
    assert await asyncio.wait_for(anext(merged), 5) == ToolStatus("working on b")
    release.set()
    assert await anext(merged) == "b"
    with pytest.raises(StopAsyncIteration):
        await anext(merged)


# --- code links --------------------------------------------------------------------------------


@pytest.fixture
def code_without_link(tmp_path: Path, monkeypatch) -> tuple[Path, str]:
    """A public code source without a `link` template (its chunks link to /code/<path>#L…)."""
    from tests.helpers import git

    data = Path(__file__).parent / "data" / "code"
    repo = make_docs_repo(tmp_path / "server", {
        "docs/intro.mdx": "---\ntitle: Introduction\naudience: public\n---\nThe server answers questions.\n",
        "app/limits.py": (data / "limits.py").read_text(),
        "app/.env": "GEMINI_API_KEY=very-secret\n",
        "app/id_rsa.py": "KEY = 'very-secret'\n",
        "tests/test_limits.py": "def test_storage():\n    assert PostgresLimitsStorage\n",
        "tools/rotate.py": "def rotate_keys():\n    return 'for developers only'\n",
    }, docs_dir=".")
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "docs"\nrepo = "server"\ndir = "docs"\n\n'
        '[[sources]]\nname = "server"\nkind = "code"\nrepo = "server"\ndir = "app"\naudience = "public"\n\n'
        '[[sources]]\nname = "internal"\nkind = "code"\nrepo = "server"\ndir = "tools"\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    return repo, git(repo, "rev-parse", "HEAD").strip()


def _sync_sources() -> None:
    """Every configured source, as `docschat sync` does."""
    from app.corpus.sources import load_sources
    from app.db.pool import create_pool
    from app.indexing.sync import sync_sources

    async def sync() -> None:
        settings = get_settings()
        assert settings.database_url
        pool = await create_pool(settings.database_url)
        try:
            assert not (await sync_sources(pool, load_sources(settings), settings, None)).failed
        finally:
            await pool.close()

    asyncio.run(sync())


def test_code_links_without_a_template_lead_to_the_synced_file(code_without_link, clean_db, db_env, start_server) -> None:
    repo, commit = code_without_link
    _sync_sources()
    # The developers' source is synced too (its file exists at the commit), but not public.
    assert query(clean_db, "select count(*) from docs_section where source = 'internal'")[0][0] > 0
    (href,) = [r["href"] for r in query(clean_db, "select href from docs_section where id = $1",
                                        "server:app/limits.py#PostgresLimitsStorage")]
    assert href == "/code/app/limits.py#L8-L23"
    # The file changes on the branch after the sync: the page shows the synced commit's lines.
    (repo / "app" / "limits.py").write_text("changed = True\n")
    from tests.helpers import commit_all

    commit_all(repo, "change after the sync")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        page = client.get(href.split("#")[0])
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert 'id="L8"' in page.text and "class PostgresLimitsStorage" in page.text and commit[:12] in page.text
        assert "changed = True" not in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        # What read_file may not read, this may not show: secrets, unindexed files, other audiences.
        for path in ("/code/app/.env", "/code/app/id_rsa.py", "/code/tests/test_limits.py", "/code/app",
                     "/code/app/../app/.env", "/code/%2e%2e/%2e%2e/etc/passwd", "/code/docs/intro.mdx",
                     "/code/app/missing.py", "/code/app/limits.py%00", "/code/tools/rotate.py", "/code/limits.py"):
            assert client.get(path).status_code == 404, path
