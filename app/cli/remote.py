"""The command line beside a running server: `ask` and `mcp` use it over HTTP instead of loading
the embedding model again (seconds on every call).

The server is PUBLIC_URL when set, else the one a `docschat serve` or demo of this DOCSCHAT_HOME
recorded in home/server.json (app/home.py); it is used only when its /healthz says ready. It
answers as the chat's visitors see (CHAT_AUDIENCES): a command asked for other audiences searches
the database itself. Light on purpose: httpx and json only, no model, no database driver.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import httpx

from app.home import recorded_server

HEALTH_TIMEOUT_SECONDS = 1.0


def find_server(settings: Any) -> str | None:
    """The URL of a ready server for these settings (PUBLIC_URL, else the home's record), or None."""
    candidates: list[str] = []
    if settings.public_url:
        candidates.append(settings.public_url)
    recorded = recorded_server(settings.docschat_home)
    if recorded is not None and recorded["url"] not in candidates:
        candidates.append(str(recorded["url"]))
    for url in candidates:
        try:
            health = httpx.get(f"{url}/healthz", timeout=HEALTH_TIMEOUT_SECONDS)
            if health.status_code == 200 and health.json().get("ready") is True:
                return url
        except (httpx.HTTPError, ValueError):
            continue
    return None


class ServerRefused(Exception):
    """The server answered, but not with an answer (rate limit, starting, error): said, then the
    command searches the database itself."""


def ask_parts(url: str, question: str, session: str | None) -> tuple[Iterator[dict[str, Any]], dict[str, str]]:
    """POST /docs/chat: the stream's parts (AI SDK UI message stream), and the response's cookies
    (docs_chat_id: the session to continue)."""
    cookies = {"docs_chat_id": session} if session else {}
    client = httpx.Client(base_url=url, cookies=cookies, timeout=httpx.Timeout(120.0, connect=5.0))
    request = client.build_request("POST", "/docs/chat", json={"message": question})
    response = client.send(request, stream=True)
    if response.status_code != 200:
        response.read()
        try:
            detail = response.json().get("detail") or response.reason_phrase
        except ValueError:
            detail = response.reason_phrase
        client.close()
        raise ServerRefused(f"{response.status_code} {detail}")
    jar = dict(response.cookies.items())

    def parts() -> Iterator[dict[str, Any]]:
        try:
            for line in response.iter_lines():
                if line.startswith("data: ") and line != "data: [DONE]":
                    yield json.loads(line[6:])
        finally:
            response.close()
            client.close()

    return parts(), jar


def search_server(url: str, admin_token: str, question: str, audiences: list[str] | None) -> dict[str, Any]:
    """The server's retrieval tester (GET /admin/api/test, behind ADMIN_TOKEN) for `docschat search`:
    its retrieval, explained, with the tester's answer check and model input."""
    params = {"q": question} | ({"audience": ",".join(audiences)} if audiences is not None else {})
    try:
        response = httpx.get(f"{url}/admin/api/test", params=params, timeout=httpx.Timeout(60.0, connect=5.0),
                             headers={"authorization": f"Bearer {admin_token}"})
    except httpx.HTTPError as exc:
        raise ServerRefused(type(exc).__name__) from None
    if response.status_code != 200:
        raise ServerRefused(f"{response.status_code} {response.reason_phrase}")
    return dict(response.json())


def relay_mcp(url: str) -> int:
    """`docschat mcp` on stdio, relayed to the server's /mcp (stateless, JSON responses): each JSON-RPC
    message read from stdin is POSTed, and the reply (if any) written to stdout, one line each."""
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    with httpx.Client(base_url=url, timeout=httpx.Timeout(120.0, connect=5.0)) as client:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                _reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
                continue
            try:
                response = client.post("/mcp", content=line.encode(), headers=headers)
            except httpx.HTTPError as exc:
                if isinstance(message, dict) and "id" in message:
                    _reply({"jsonrpc": "2.0", "id": message["id"],
                            "error": {"code": -32603, "message": f"the docschat server at {url} did not answer ({exc})"}})
                continue
            if response.status_code == 202 or not response.content:  # a notification: no reply
                continue
            if response.headers.get("content-type", "").startswith("application/json"):
                _reply(response.json())
            elif isinstance(message, dict) and "id" in message:
                _reply({"jsonrpc": "2.0", "id": message["id"],
                        "error": {"code": -32603, "message": f"HTTP {response.status_code} from {url}/mcp"}})
    return 0


def _reply(message: Any) -> None:
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()
