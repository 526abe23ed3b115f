"""The MCP door, through the official SDK's own client: streamable HTTP against `docschat serve` in its
own process and against the app on a port, stdio against `python -m app mcp`. Anonymous callers see
CHAT_AUDIENCES; a token of MCP_TOKENS its audiences; a wrong token is 401. The secret words of the
internal page, of the page that declares no audience and of the code file never come out."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from pydantic import ValidationError

from app.config import Settings, parse_mcp_tokens
from app.doors.mcp_server import (
    NO_FILE,
    NO_PAGE,
    audiences_for_authorization,
    page_href_of,
)
from tests.served import ServeProcess
from tests.test_llms_txt import SECRET, UNDECLARED_SECRET, doors_project, sync_project  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("doors_project")

REPO = Path(__file__).resolve().parent.parent
TOKEN = "internal-token-0123456789abcdef"
BASE = "http://127.0.0.1:8000"


def _env(database_url: str, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "METRICS", "MCP_"))}
    env.update(DATABASE_URL=database_url, DOCSCHAT_HOME=str(home), PYTHONPATH=str(REPO), LOG_LEVEL="info",
               EMBEDDING_PROVIDER="none", **extra)
    return env


@asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
            streamable_http_client(url + "/mcp", http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(env: dict[str, str], cwd: Path, *args: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "app", "mcp", *args], env=env, cwd=cwd)
    with (cwd / "mcp-stderr.log").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> tuple[bool, Any]:
    """(is_error, the structured result or the error text)."""
    result = await session.call_tool(tool, arguments)
    if result.is_error:
        return True, "".join(getattr(c, "text", "") for c in result.content)
    assert result.structured_content is not None
    # The text content says the same as the structured one (clients that read only text).
    assert json.loads("".join(getattr(c, "text", "") for c in result.content)) == result.structured_content
    return False, result.structured_content


async def anonymous_checks(session: ClientSession) -> list[Any]:
    """What an anonymous caller gets; returns every output, for the leak check."""
    tools = await session.list_tools()
    assert [t.name for t in tools.tools] == ["search_docs", "get_page", "read_file"]
    schema = {t.name: t.input_schema for t in tools.tools}
    assert schema["search_docs"]["required"] == ["query"] and schema["search_docs"]["properties"]["limit"]["maximum"] == 10
    assert all(t.annotations and t.annotations.read_only_hint for t in tools.tools)
    outputs: list[Any] = []
    failed, found = await call(session, "search_docs", query="How do I embed the widget with a script tag?", limit=2)
    assert not failed and found["results"], found
    first = found["results"][0]
    assert first["title"] == "Embed the [chat] widget"
    assert first["url"] == f"{BASE}/docs/guides/widget#embed-the-widget"
    assert first["heading_path"] == "Embed the [chat] widget › Embed the widget"
    assert "Add one script tag to your pages" in first["text"]
    assert len(found["results"]) <= 2
    outputs.append(found)
    failed, page = await call(session, "get_page", url=first["url"])
    assert not failed and page["title"] == "Embed the [chat] widget" and page["url"] == f"{BASE}/docs/guides/widget"
    text = page["text"]
    assert text.index("Add the **chat widget**") < text.index("## Embed the widget") < text.index("## Colors")
    failed, same = await call(session, "get_page", url="/docs/guides/widget")
    assert not failed and same == page
    # Not there, internal, undeclared: one answer, so existence does not leak.
    for url in (f"{BASE}/docs/guides/no-such-page", f"{BASE}/docs/guides/vault", "/docs/guides/staging",
                "https://elsewhere.example/docs/guides/vault", ""):
        failed, error = await call(session, "get_page", url=url)
        assert failed and error == f"Error executing tool get_page: {NO_PAGE}", error
        outputs.append(error)
    for query in (f"{SECRET} vault rotation password", f"staging host {UNDECLARED_SECRET}", "VAULT_PASSWORD rotate"):
        outputs.append((await call(session, "search_docs", query=query, limit=10))[1])
    # Code of the developer audience: neither a real file nor a made-up one can be read.
    for path in ("app/vault.py", "app/limits.py", "app/no_such_file.py", "../etc/passwd"):
        failed, error = await call(session, "read_file", path=path)
        assert failed and error == f"Error executing tool read_file: {NO_FILE}", error
        outputs.append(error)
    failed, error = await call(session, "search_docs", query="x", limit=11)
    assert failed and "limit" in error
    failed, error = await call(session, "search_docs", query="   ")
    assert failed and "query must not be empty" in error
    return outputs


async def internal_checks(session: ClientSession) -> None:
    failed, found = await call(session, "search_docs", query=f"vault rotation password {SECRET}", limit=3)
    assert not failed and found["results"][0]["title"] == "Vault rotation" and SECRET in found["results"][0]["text"]
    failed, page = await call(session, "get_page", url=f"{BASE}/docs/guides/vault")
    assert not failed and SECRET in page["text"]
    failed, page = await call(session, "get_page", url="/docs/guides/staging#hosts")
    assert not failed and UNDECLARED_SECRET in page["text"]


def assert_no_secret(outputs: list[Any]) -> None:
    dumped = json.dumps(outputs)
    assert SECRET not in dumped and UNDECLARED_SECRET not in dumped
    assert "Vault rotation" not in dumped and "Staging servers" not in dumped


async def test_streamable_http_against_a_served_process(clean_db, db_env, tmp_path) -> None:
    await sync_project()
    # DOCS_BASE_URL: the checks' links under the base the stdio test has (serve --port sets its own).
    env = _env(clean_db, tmp_path / "home", MCP_TOKENS=f"{TOKEN}=internal,developer;{'p' * 20}=partner",
               DOCS_BASE_URL=BASE)
    with ServeProcess([sys.executable, "-m", "app"], env, cwd=tmp_path) as server:
        async with http_session(server.url) as session:
            assert_no_secret(await anonymous_checks(session))
        async with http_session(server.url, TOKEN) as session:
            await internal_checks(session)
            failed, code = await call(session, "read_file", path="app/vault.py")
            assert not failed and code["source"] == "server" and code["path"] == "app/vault.py"
            assert code["content"].startswith(f'1: VAULT_PASSWORD = "{SECRET}"') and code["truncated"] is False
            failed, code = await call(session, "read_file", path="app/limits.py", start_line=4)
            assert not failed and code["content"].startswith("4:     def allowed(self):")
        async with http_session(server.url, "p" * 20) as session:  # a token whose audience has no page
            failed, found = await call(session, "search_docs", query="embed the widget script tag")
            assert not failed and found["results"] == []
            failed, error = await call(session, "get_page", url="/docs/guides/widget")
            assert failed and error.endswith(NO_PAGE)
        # A wrong token, another scheme, an empty bearer: 401, never the anonymous view.
        for header in (f"Bearer {TOKEN}x", "Bearer", f"Basic {TOKEN}", f"bearer {TOKEN[:-1]}"):
            async with httpx.AsyncClient(timeout=30) as client:
                response = await client.post(server.url + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                             headers={"Authorization": header, "accept": "application/json"})
            assert response.status_code == 401, (header, response.text)
            assert response.headers["www-authenticate"].startswith("Bearer")
        with pytest.raises(Exception):  # noqa: B017 - the SDK's client surfaces the 401 as its own error
            async with http_session(server.url, "wrong-token-0123456789"):
                pass
        log = server.log()
    assert TOKEN not in log and "wrong-token" not in log and "p" * 20 not in log
    assert "mcp_auth_failed" in log


async def test_stdio_transport_default_and_wider_audiences(clean_db, db_env, tmp_path) -> None:
    await sync_project()
    env = _env(clean_db, tmp_path / "home")
    async with stdio_session(env, tmp_path) as session:
        assert_no_secret(await anonymous_checks(session))
    async with stdio_session(env, tmp_path, "--audience", "internal,developer") as session:
        await internal_checks(session)
        failed, code = await call(session, "read_file", path="app/vault.py")
        assert not failed and SECRET in code["content"]


async def test_http_rate_limit_and_foreign_origins(clean_db, db_env, start_server, monkeypatch) -> None:
    monkeypatch.setenv("MCP_RATE_LIMIT_PER_HOUR", "3")
    server = start_server()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        foreign = client.post("/mcp", json=body, headers={**headers, "origin": "https://evil.example"})
        assert foreign.status_code == 403
        statuses = [client.post("/mcp", json=body, headers=headers).status_code for _ in range(3)]
        assert statuses[:2] == [200, 200] and statuses[2] == 429  # the refused origin spent one too
        refused = client.post("/mcp", json=body, headers=headers)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert refused.json()["error"] == "rate_limited"


def test_tokens_setting_is_checked_and_never_quoted() -> None:
    assert parse_mcp_tokens(f" {TOKEN} = Internal, developer ; {'q' * 16}=public") == [
        (TOKEN, ["developer", "internal"]), ("q" * 16, ["public"])]
    for raw, message in (("short=internal", "16+ characters"), (f"{TOKEN}", "is not 'token=audience"),
                         (f"{TOKEN}=", "is not 'token=audience"), (f"{TOKEN}=a b", "not an audience name"),
                         (f"{TOKEN}=a;{TOKEN}=b", "repeats the token"), (";", "lists no token")):
        with pytest.raises(ValueError, match=re.escape(message)) as caught:
            Settings(mcp_tokens=raw)
        assert isinstance(caught.value, ValidationError)
        assert TOKEN not in "; ".join(e["msg"] for e in caught.value.errors())  # what the CLI prints
    assert Settings(mcp_tokens="  ").mcp_tokens is None


def test_authorization_header_to_audiences() -> None:
    settings = Settings(mcp_tokens=f"{TOKEN}=internal", chat_audiences="public,partner")
    assert audiences_for_authorization(None, settings) == ["partner", "public"]
    assert audiences_for_authorization(f"Bearer {TOKEN}", settings) == ["internal"]
    assert audiences_for_authorization(f"  bearer   {TOKEN} ", settings) == ["internal"]
    for header in ("", "Bearer", f"Bearer {TOKEN}0", f"Token {TOKEN}", TOKEN):
        assert audiences_for_authorization(header, settings) is None
    assert audiences_for_authorization(f"Bearer {TOKEN}", Settings()) is None  # no tokens configured
    assert audiences_for_authorization(f"Bearer {TOKEN}", Settings(mcp_tokens=f"{TOKEN}=internal", flag_public=True)) \
        == ["public"]


def test_page_urls_a_caller_may_give() -> None:
    settings = Settings(docs_base_url="https://docs.example.com")
    assert page_href_of("https://docs.example.com/docs/guides/widget/#colors", settings) == [
        "https://docs.example.com/docs/guides/widget", "/docs/guides/widget"]
    assert page_href_of("/docs/guides/widget?x=1", settings) == ["/docs/guides/widget"]
    assert page_href_of("https://other.example/docs/guides/widget", settings) == ["https://other.example/docs/guides/widget"]
