"""Every HTML page carries the security headers and names its charset once; the favicon is served;
the /docs index sorts titles as a reader does (issue 47)."""

from __future__ import annotations

import re

import httpx

from tests.helpers import seed_docs

TOKEN = "t" * 32
DOCS = {
    "zebra.mdx": "---\ntitle: Zebra crossing\npublic: true\n---\nStripes.\n",
    "api.mdx": "---\ntitle: api keys\npublic: true\n---\nKeys.\n",
    "about.mdx": "---\ntitle: About\npublic: true\n---\nWho we are.\n",
    "build.mdx": "---\ntitle: Build\npublic: true\n---\nBuilding.\n",
}


def test_html_pages_carry_csp_nosniff_and_one_charset(offline, start_server, monkeypatch) -> None:
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("SITE_NAME", "Acme <Docs>")
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for path in ("/", "/docs", "/docs/zebra", "/admin"):
            response = client.get(path)
            assert response.status_code == 200, path
            content_type = response.headers["content-type"]
            assert content_type.startswith("text/html"), path
            assert content_type.lower().count("charset") == 1, (path, content_type)
            csp = response.headers.get("content-security-policy", "")
            assert "frame-ancestors" in csp and "default-src 'none'" in csp, (path, csp)
            assert response.headers.get("x-content-type-options") == "nosniff", path

        # The API schema is JSON, not Litestar's Redoc page (scripts and fonts from CDNs, no CSP).
        for path in ("/schema", "/schema/openapi.json"):
            schema = client.get(path)
            assert schema.status_code == 200 and "json" in schema.headers["content-type"], path
            assert schema.json()["info"]["title"] == "docschat"

        icon = client.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
        assert icon.content[:4] == b"\x00\x00\x01\x00"  # an ICO file

        index = client.get("/docs").text
        assert "<h1>Acme &lt;Docs&gt;</h1>" in index  # SITE_NAME, as text
        titles = re.findall(r'<a href="/docs/[^"]+">([^<]+)</a>', index)
        assert titles == ["About", "api keys", "Build", "Zebra crossing"], titles
