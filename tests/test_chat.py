"""The chat API over real HTTP: the real app under uvicorn, a real Postgres, Gemini faked over HTTP."""

from __future__ import annotations

import concurrent.futures
import json
import time

import httpx
import pytest

from app.chat.answerers import Excerpt, ExtractiveAnswerer, format_excerpts
from app.config import Settings
from app.rate_limit import client_ip, is_trusted_proxy
from tests.helpers import docschat_in_process, parse_sse, seed_docs

DOCS = {
    "widget.mdx": (
        "---\ntitle: Chat widget\npublic: true\n---\nThe widget adds a chat panel to any docs site.\n\n"
        "## Embed the widget\nAdd one script tag to your pages. The script tag loads widget.js from your "
        "docschat server. Set data-endpoint to the chat URL.\n\n## Colors\nThe widget follows the "
        "visitor's color scheme.\n"
    ),
    "sync.mdx": (
        "---\ntitle: Syncing docs\npublic: true\n---\nSync keeps the index current.\n\n## Run a sync\n"
        "Run docschat sync after every merge. Unchanged chunks are skipped by content hash.\n"
    ),
    "privacy.mdx": "---\ntitle: Privacy Policy\npublic: true\n---\nWe store hashed IP addresses only.\n",
}


def seed(database_url: str) -> None:
    """DOCS indexed with whatever embedding provider the environment selects."""
    seed_docs(database_url, DOCS)




def ask(client: httpx.Client, message: object, **kwargs) -> httpx.Response:
    return client.post("/docs/chat", json={"message": message}, **kwargs)


def test_sources_stream_before_text_with_gemini(fake_gemini, clean_db, start_server) -> None:
    seed_docs(clean_db, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        response = ask(client, "How do I embed the widget with a script tag?")
        assert response.status_code == 200
        assert response.headers["x-vercel-ai-ui-message-stream"] == "v1"
        assert response.headers["content-type"].startswith("text/event-stream")
        cookie = response.cookies.get("docs_chat_id")
        set_cookie = response.headers["set-cookie"].lower()
        assert cookie and "httponly" in set_cookie and "samesite=lax" in set_cookie and "path=/" in set_cookie
        parts = parse_sse(response.text)
    kinds = [p if isinstance(p, str) else p["type"] for p in parts]
    assert kinds[0] == "start" and kinds[-2:] == ["finish", "[DONE]"]
    first_text = kinds.index("text-start")
    sources = [p for p in parts[:first_text] if isinstance(p, dict) and p["type"] == "source-url"]
    assert sources and all(k != "text-delta" for k in kinds[:first_text])
    assert sources[0]["title"] == "Chat widget" and sources[0]["url"].endswith("/docs/widget#embed-the-widget")
    assert "".join(p["delta"] for p in parts if isinstance(p, dict) and p["type"] == "text-delta") == (
        "The answer comes from the excerpts."
    )
    generate = fake_gemini.generate_calls()
    assert len(generate) == 1
    body = generate[0]["body"]
    prompt = body["contents"][-1]["parts"][0]["text"]
    assert "<excerpts-" in prompt and "Add one script tag" in prompt and prompt.rstrip().endswith(
        "Question: How do I embed the widget with a script tag?"
    )
    assert "reference data" in json.dumps(body["systemInstruction"])


def test_history_survives_restart_and_delete_clears_it(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    first = start_server()
    with httpx.Client(base_url=first.url, timeout=30) as client:
        ask(client, "How do I run a sync?")  # the reply is stored before the stream ends
        cookie = client.cookies.get("docs_chat_id")
        assert cookie is not None
    first.stop()
    second = start_server()
    with httpx.Client(base_url=second.url, timeout=30, cookies={"docs_chat_id": cookie}) as client:
        messages = client.get("/docs/chat").json()["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert messages[0]["content"] == "How do I run a sync?"
        assert messages[1]["sources"][0]["title"] == "Syncing docs" and "[1]" in messages[1]["content"]
        deleted = client.delete("/docs/chat")
        assert deleted.status_code == 200 and deleted.json() == {"deleted": True}
        assert 'docs_chat_id=""' in deleted.headers["set-cookie"] or "max-age=0" in deleted.headers["set-cookie"].lower()
    with httpx.Client(base_url=second.url, timeout=30, cookies={"docs_chat_id": cookie}) as client:
        assert client.get("/docs/chat").json()["messages"] == []
    with httpx.Client(base_url=second.url, timeout=30) as client:
        assert client.get("/docs/chat").json()["messages"] == []


def test_unknown_or_malformed_cookie_starts_a_session(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    leftover = "5b0c4f3e-1d2a-4c6b-9e8f-0a1b2c3d4e5f"
    with httpx.Client(base_url=server.url, timeout=30, cookies={"docs_chat_id": leftover}) as client:
        ask(client, "run a sync")
        assert len(client.get("/docs/chat").json()["messages"]) == 2
    with httpx.Client(base_url=server.url, timeout=30, cookies={"docs_chat_id": "not-a-uuid'; drop table x"}) as client:
        response = ask(client, "run a sync")
        assert response.status_code == 200 and response.cookies.get("docs_chat_id") != "not-a-uuid"


def test_quota_survives_clear_chat_and_429_says_when(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "2")
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert ask(client, "run a sync").status_code == 200
        assert ask(client, "embed the widget").status_code == 200
        client.delete("/docs/chat")
        limited = ask(client, "colors?")
    assert limited.status_code == 429
    retry_after = int(limited.headers["retry-after"])
    assert 0 < retry_after <= 3600
    assert limited.json()["error"] == "rate_limited" and "come back" in limited.json()["detail"]


def test_twenty_simultaneous_posts_admit_exactly_five(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "5")
    seed_docs(offline, DOCS)
    server = start_server()

    def one(i: int) -> int:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            return ask(client, f"how do I run a sync, take {i}").status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(one, range(20)))
    assert statuses.count(200) == 5 and statuses.count(429) == 15


BAD_BODIES = [
    (b"", 400), (b"not json", 400), (b"[]", 400), (b'"text"', 400), (b"{}", 400),
    (b'{"message": ""}', 400), (b'{"message": "   \\n\\t "}', 400), (b'{"message": 42}', 400),
    (b'{"message": ["a"]}', 400), (b'{"message": null}', 400), (b'{"message": {"x": 1}}', 400),
    (b"\xff\xfe\x00", 400), (json.dumps({"message": "x" * 20000}).encode(), 413),
]


def test_bad_input_is_4xx_json_and_costs_no_quota(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "2")
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for body, status in BAD_BODIES:
            response = client.post("/docs/chat", content=body, headers={"content-type": "application/json"})
            assert response.status_code == status, (body[:40], response.text)
            payload = response.json()
            assert set(payload) == {"error", "detail"} and payload["detail"], payload
        ok = client.post("/docs/chat", json={"message": "run a sync", "unknown": [1, 2], "mode": "x"})
        assert ok.status_code == 200
        assert ask(client, "embed the widget").status_code == 200
        assert ask(client, "third").status_code == 429
        assert client.get("/nope").json()["error"] == "not_found"


def test_long_message_is_truncated_before_use(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        ask(client, "sync " + "y" * 5000)
        stored = client.get("/docs/chat").json()["messages"][0]["content"]
    assert len(stored) == 2000


def test_model_failure_mid_stream_ends_with_error_and_keeps_partial(fake_gemini, clean_db, start_server) -> None:
    seed_docs(clean_db, DOCS)
    fake_gemini.answer_parts = ["Partial ", "answer ", "never finished"]
    fake_gemini.cut_stream_after = 2
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, "How do I embed the widget?").text)
        kinds = [p if isinstance(p, str) else p["type"] for p in parts]
        assert "error" in kinds and kinds[-1] == "[DONE]" and "finish" not in kinds
        assert kinds.index("source-url") < kinds.index("text-delta") < kinds.index("error")
        messages = client.get("/docs/chat").json()["messages"]
    assert messages[-1]["role"] == "assistant" and messages[-1]["content"] == "Partial answer "
    assert messages[-1]["sources"]


def test_nothing_found_says_so_and_calls_no_model(fake_gemini, clean_db, start_server) -> None:
    seed_docs(clean_db, DOCS)
    fake_gemini.fail_statuses = []
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        # Embeddings find *something* for any text; keyword-only finds nothing for unknown words.
        fake_gemini.fail_statuses = [500] * 50
        parts = parse_sse(ask(client, "zyxwvut qwertyuiop").text)
    text = "".join(p["delta"] for p in parts if isinstance(p, dict) and p["type"] == "text-delta")
    assert "couldn't find" in text and not any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    assert fake_gemini.generate_calls() == []


def test_healthz_and_openapi(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        health = client.get("/healthz").json()
        assert health["status"] == "ok" and health["sections"] > 0 and health["embedding_provider"] == "none"
        schema = client.get("/schema/openapi.json")
        assert schema.status_code == 200 and "/docs/chat" in schema.json()["paths"]


def test_cors_for_configured_docs_site(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("CORS_ORIGINS", "https://docs.example.com")
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        allowed = client.options("/docs/chat", headers={"origin": "https://docs.example.com",
                                                        "access-control-request-method": "POST"})
        assert allowed.headers.get("access-control-allow-origin") == "https://docs.example.com"
        other = client.options("/docs/chat", headers={"origin": "https://evil.example",
                                                      "access-control-request-method": "POST"})
        assert other.headers.get("access-control-allow-origin") != "https://evil.example"


def test_forwarded_for_trusted_only_from_configured_proxies() -> None:
    assert client_ip("203.0.113.9", "1.2.3.4", []) == "203.0.113.9"
    assert client_ip("10.0.0.2", "1.2.3.4", ["10.0.0.3"]) == "10.0.0.2"
    assert client_ip("10.0.0.2", "6.6.6.6, 1.2.3.4", ["10.0.0.2"]) == "1.2.3.4"
    assert client_ip("10.0.0.2", "1.2.3.4, 10.0.0.5", ["10.0.0.2", "10.0.0.5"]) == "1.2.3.4"
    # One address however it is written: the Secure-cookie check and the rate limit agree on it.
    assert client_ip("::1", "1.2.3.4", ["0:0:0:0:0:0:0:1"]) == "1.2.3.4"
    assert is_trusted_proxy("0:0::1", ["::1"]) and not is_trusted_proxy("::2", ["::1"])
    assert not is_trusted_proxy(None, ["::1"]) and not is_trusted_proxy("not-an-ip", ["not-an-ip"])


def test_a_nul_in_a_chat_question_separates_words_as_in_search() -> None:
    from app.chat.requests import parse_question

    assert parse_question("rotate\x00key ") == "rotate key"  # it was "rotatekey": found nothing


def test_trusted_proxies_may_be_networks_and_a_malformed_entry_is_refused() -> None:
    """A range (the usual way to name a proxy subnet) or a typo was silently ignored: no proxy was
    trusted, and every visitor behind it shared one rate limit."""
    from pydantic import ValidationError

    assert client_ip("10.1.2.3", "1.2.3.4, 10.200.0.5", ["10.0.0.0/8"]) == "1.2.3.4"
    assert client_ip("11.0.0.1", "1.2.3.4", ["10.0.0.0/8"]) == "11.0.0.1"
    assert is_trusted_proxy("fd00::7", ["fd00::/8"]) and not is_trusted_proxy("1.2.3.4", ["fd00::/8"])
    assert Settings(trusted_proxies="10.0.0.0/8, 192.0.2.1").trusted_proxies == ["10.0.0.0/8", "192.0.2.1"]
    with pytest.raises(ValidationError, match="'proxy.internal' is not an IP address or network"):
        Settings(trusted_proxies="10.0.0.1,proxy.internal")
    with pytest.raises(ValidationError, match="trusts every address"):  # any client could name itself
        Settings(trusted_proxies="0.0.0.0/0")
    # A server bound to :: sees an IPv4 proxy as ::ffff:10.0.0.5; a balancer may add the client's port,
    # which made one key per connection.
    assert client_ip("::ffff:10.0.0.5", "1.2.3.4:5678", ["10.0.0.0/8"]) == "1.2.3.4"
    assert client_ip("10.0.0.5", "[2001:db8::1]:443", ["10.0.0.0/8"]) == "2001:db8::1"


@pytest.mark.parametrize(("name", "value", "problem"), [
    ("chat_audiences", "*", "is not an audience name"),
    ("chat_audiences", " , ", "needs at least one audience"),
    ("cors_origins", "null", "is not an origin"),
    ("cors_origins", "https://docs.example.com/guides", "is not an origin"),
    ("cors_origins", "https://docs.example.com:99999", "is not an origin"),
    ("gap_retention_days", "3000000", "less than or equal to 36500"),
    ("log_level", "verbose", "'debug', 'info', 'warning' or 'error'"),
    ("leg_timeout_seconds", "inf", "less than or equal to 600"),
    ("embedding_retry_base_seconds", "inf", "less than or equal to 60"),
    ("db_pool_size", "1", "greater than or equal to 2"),  # a server's sync job then waited on itself forever
])
def test_settings_that_cannot_work_are_refused_naming_the_problem(name: str, value: str, problem: str) -> None:
    """Each was accepted: CHAT_AUDIENCES=* silently showed the chat nothing, CORS_ORIGINS=null shared
    the session cookie with any sandboxed page, a huge GAP_RETENTION_DAYS overflowed Postgres'
    timestamps (gaps silently not recorded), an infinite backoff would sleep forever."""
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=problem):
        Settings(**{name: value})  # type: ignore[arg-type]  # a string for any setting, as the environment gives it


def test_settings_are_read_as_written_when_they_mean_one_thing() -> None:
    settings = Settings(chat_audiences="Public, Partners", cors_origins="https://docs.example.com/", log_level="DEBUG")
    assert settings.anonymous_audiences == ["partners", "public"]
    assert settings.cors_origins == ["https://docs.example.com"] and settings.log_level == "debug"
    # Origins as browsers send them: lower case, no default port (one with :443 never matched).
    assert Settings(cors_origins="HTTPS://Docs.Example.com:443, http://localhost:8080").cors_origins == [
        "https://docs.example.com", "http://localhost:8080"]
    assert Settings(log_level="WARN").log_level == "warning"  # Python's names worked before the check


def test_extractive_answer_is_traceable_to_its_guides() -> None:
    excerpts = [
        Excerpt(1, "Widget", "u1", "Embed", "Add one script tag to your pages. Colors follow the theme."),
        Excerpt(2, "Sync", "u2", "Run", "Run docschat sync after every merge. It skips unchanged chunks."),
    ]
    answer = ExtractiveAnswerer().answer("How do I add the script tag to my pages?", excerpts)
    # The passage, whole, under its heading (issue 45: passages, not sentence picks).
    assert answer == "**Widget › Embed**\n\nAdd one script tag to your pages. Colors follow the theme. [1]"


def test_ask_cli_prints_guides_then_summary(offline) -> None:
    seed_docs(offline, DOCS)
    result = docschat_in_process("ask", "How do I embed the widget?",
                                 env={"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none"})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.index("Relevant Guides") < out.index("Chat widget") < out.index("Summary")
    assert "script tag" in out.split("Summary", 1)[1]


def test_client_disconnect_mid_stream_keeps_what_was_generated(fake_gemini, clean_db, start_server) -> None:
    seed_docs(clean_db, DOCS)
    fake_gemini.answer_parts = ["First words. "] + [f"more {i} " for i in range(40)]
    fake_gemini.part_delay_seconds = 0.1
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        with client.stream("POST", "/docs/chat", json={"message": "How do I embed the widget?"}) as response:
            cookie = response.cookies.get("docs_chat_id")
            assert cookie is not None
            seen = ""
            for chunk in response.iter_text():
                seen += chunk
                if "First words." in seen:
                    break  # the reader leaves mid-answer; closing the stream drops the connection
    deadline = time.time() + 10
    with httpx.Client(base_url=server.url, timeout=30, cookies={"docs_chat_id": cookie}) as client:
        while time.time() < deadline:
            messages = client.get("/docs/chat").json()["messages"]
            if len(messages) == 2:
                break
            time.sleep(0.2)
    assert messages[1]["role"] == "assistant" and messages[1]["content"].startswith("First words. ")
    assert len(messages[1]["content"]) < len("".join(fake_gemini.answer_parts))


def test_logs_carry_no_ip_and_no_question_text(offline, start_server, capfd) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    secret_question = "zebra-quokka-unique-question about sync"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert ask(client, secret_question).status_code == 200
        client.post("/docs/chat", content=b"not json")
    time.sleep(0.2)
    captured = capfd.readouterr()
    logs = captured.out + captured.err
    assert "chat_question" in logs  # the request was logged...
    assert "zebra-quokka" not in logs and "127.0.0.1" not in logs.replace(server.url, "")  # ...without these


def test_the_prompt_says_where_each_excerpt_sits_in_its_page() -> None:
    prompt = format_excerpts([
        Excerpt(1, "Guide", "https://x.test/g#sub-part", "Sub part", "Text.", "Guide › Install › Sub part"),
        Excerpt(2, "Sync", "https://x.test/s", "", "Overview text.", "Sync"),
    ])
    # A subsection's heading alone ("Sub part") does not say what it is about: its parents do.
    assert 'section="Install › Sub part"' in prompt and 'section="Overview"' in prompt
