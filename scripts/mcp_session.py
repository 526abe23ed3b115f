"""A real MCP client session against docschat, with the official SDK's client: list the tools, call
each, print every exchange as JSON lines (the transcript in design/doors.md).

    python scripts/mcp_session.py --url http://127.0.0.1:8000/mcp [--token T] [--query Q] [--page URL] [--file PATH]
    python scripts/mcp_session.py --stdio [-- extra args for `python -m app mcp`]

Over stdio it spawns `python -m app mcp` with this environment (DATABASE_URL / DOCSCHAT_HOME).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from contextlib import asynccontextmanager
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def _print(kind: str, payload: Any) -> None:
    print(json.dumps({"step": kind, **payload}, ensure_ascii=False), flush=True)


@asynccontextmanager
async def connect(args: argparse.Namespace):
    if args.stdio:
        params = StdioServerParameters(command=sys.executable, args=["-m", "app", "mcp", *args.extra],
                                       env={k: v for k, v in os.environ.items()})
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            yield session
    else:
        headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
        async with create_mcp_http_client(headers=headers) as http, \
                streamable_http_client(args.url, http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            yield session


def _result(result: Any) -> dict[str, Any]:
    text = "".join(getattr(c, "text", "") for c in result.content)
    return {"is_error": bool(result.is_error), "structured": result.structured_content,
            "text": None if result.structured_content is not None else text}


async def main(args: argparse.Namespace) -> None:
    async with connect(args) as session:
        started = time.perf_counter()
        info = await session.initialize()
        _print("initialize", {"server": info.server_info.name, "protocol": info.protocol_version,
                              "ms": round((time.perf_counter() - started) * 1000, 1)})
        tools = await session.list_tools()
        _print("list_tools", {"tools": [{"name": t.name, "description": (t.description or "").split("\n")[0],
                                          "arguments": sorted((t.input_schema or {}).get("properties", {}))}
                                         for t in tools.tools]})
        calls: list[tuple[str, dict[str, Any]]] = [("search_docs", {"query": args.query, "limit": 2})]
        page = args.page
        if page is None:
            first = await session.call_tool("search_docs", {"query": args.query, "limit": 1})
            results = (first.structured_content or {}).get("results") or []
            page = results[0]["url"] if results else "/docs"
        calls += [("get_page", {"url": page}), ("get_page", {"url": "/docs/no-such-page"}),
                  ("read_file", {"path": args.file, "start_line": 1})]
        for name, arguments in calls:
            started = time.perf_counter()
            result = await session.call_tool(name, arguments)
            out = _result(result)
            if name == "get_page" and out["structured"]:
                text = out["structured"]["text"]
                out["structured"] = {**out["structured"], "text": text[: args.chars] + ("…" if len(text) > args.chars else "")}
            if name == "search_docs" and out["structured"]:
                for item in out["structured"]["results"]:
                    item["text"] = item["text"][: args.chars] + ("…" if len(item["text"]) > args.chars else "")
            if name == "read_file" and out["structured"]:
                content = out["structured"]["content"]
                out["structured"] = {**out["structured"], "content": "\n".join(content.split("\n")[:3]) + "\n…"}
            _print("call_tool", {"tool": name, "arguments": arguments,
                                 "ms": round((time.perf_counter() - started) * 1000, 1), **out})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000/mcp")
    parser.add_argument("--token", default=None)
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--query", default="How do I embed the chat widget?")
    parser.add_argument("--page", default=None, help="URL for get_page (default: the first search result)")
    parser.add_argument("--file", default="app/rate_limit.py", help="path for read_file")
    parser.add_argument("--chars", type=int, default=200, help="characters of each text printed")
    parser.add_argument("extra", nargs="*", help="after --: arguments of `python -m app mcp` (with --stdio)")
    asyncio.run(main(parser.parse_args()))
