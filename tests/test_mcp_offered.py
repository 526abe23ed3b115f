"""MCP offers read_file only where a code source is configured, and carries SITE_NAME (issue 47).
Apart from tests/test_mcp.py, whose project has a code source."""

from __future__ import annotations

import httpx


async def test_without_a_code_source_no_read_file_and_the_site_name(clean_db, db_env, start_server, monkeypatch) -> None:
    monkeypatch.setenv("SITE_NAME", "Zeta Handbook")
    server = start_server()
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        result = client.post("/mcp", json=init, headers=headers).json()["result"]
        assert result["serverInfo"]["name"] == "Zeta Handbook"
        assert "read_file" not in result["instructions"]
        listed = client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers)
        assert [t["name"] for t in listed.json()["result"]["tools"]] == ["search_docs", "get_page"]
