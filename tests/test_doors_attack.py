"""Every door attacked as an adversary would: /docs/search, /llms.txt, /llms-full.txt and /mcp.

The team rule: an internal page never leaves through any door. The project below hides its secret
words everywhere an internal page can hold one (title, headings, front matter, a snippet, a code
block, a link target, its file name and so its URL), in a page with the same URL as a public page
of another source, and in a code file the anonymous caller may not read (with symlinks to it and
out of the repository). Hostile public pages try Markdown injection into llms.txt. Each door is
then called anonymously, with bad and foreign tokens, and with the tricks a caller can type.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import get_settings
from app.doors.mcp_server import NO_FILE, NO_PAGE
from tests.helpers import commit_all, make_docs_repo, sync_configured_sources, write_files
from tests.test_mcp import call, http_session

TOKEN = "partner-token-0123456789abcdef"  # MCP_TOKENS: this token sees the partner audience only
INTERNAL_TOKEN = "internal-token-fedcba9876543210"

# One secret word per place an internal page can hold one.
S_TITLE = "xylotitlewombat"
S_HEADING = "xyloheadingnarwhal"
S_DESCRIPTION = "xylodescriptionokapi"
S_BODY = "xylobodyaxolotl"
S_CODE = "xylocodeblockpangolin"
S_LINK = "xylolinktargetquagga"
S_SLUG = "xyloslugdugong"
S_SNIPPET = "xylosnippetmarmoset"
S_MIRROR = "xylomirrortapir"  # the internal page at the same URL as a public one
S_CODEFILE = "xylocodefileibex"  # a code source only `developer` may read
S_PARTNER = "xylopartnerkinkajou"  # a page for the partner audience
SECRETS = (S_TITLE, S_HEADING, S_DESCRIPTION, S_BODY, S_CODE, S_LINK, S_SLUG, S_SNIPPET, S_MIRROR, S_CODEFILE,
           S_PARTNER)
NOT_PARTNER = tuple(s for s in SECRETS if s != S_PARTNER)

HOSTILE_TITLE = 'Evil](https://evil.example) <script>alert(1)</script> [x'

DOCS = {
    "index.mdx": "---\ntitle: Acme\naudience: public\n---\nAcme answers questions about your docs.\n",
    "guides/widget.mdx": "---\ntitle: Embed the widget\naudience: public\n---\nAdd the widget with one script tag.\n\n"
                         "## Colors\nThe widget follows the color scheme.\n\nimport Note from '/snippets/ops-note.mdx'\n\n"
                         "<Note />\n",
    # A snippet that declares the internal audience: never pasted into a public page.
    "snippets/ops-note.mdx": f"---\naudience: internal\n---\nThe ops note says {S_SNIPPET}.\n",
    f"ops/runbook-{S_SLUG}.mdx": (
        f"---\ntitle: Runbook {S_TITLE}\ndescription: Rotation for {S_DESCRIPTION} keys.\naudience: internal\n---\n"
        f"The on-call runbook. {S_BODY} is the widget vault.\n\n"
        f"## Rotate the {S_HEADING} keys\nRun the rotation:\n\n```bash\nvault rotate --key {S_CODE}\n```\n\n"
        f"See [the console](https://{S_LINK}.example/widget) for the widget keys.\n"
    ),
    "partners.mdx": f"---\ntitle: Partner program\naudience: partner\n---\nPartners get the {S_PARTNER} widget.\n",
    # The same URL as the mirror source's internal page (both sources use url_prefix /docs).
    "shared.mdx": "---\ntitle: Shared page\naudience: public\n---\nThe public side of the shared widget page.\n",
    # Hostile public pages: Markdown injection into llms.txt through the title, the description.
    "guides/hostile.mdx": (
        f"---\ntitle: '{HOSTILE_TITLE}'\naudience: public\n---\n"
        "Hostile widget text. [click](javascript:alert(1)) and ](https://evil.example) trailing.\n"
    ),
    # A hostile file name: its URL would end the link and start another.
    "guides/evil) [pwn](https:/evil.example) x.mdx": "---\ntitle: Evil path\naudience: public\n---\nA hostile path.\n",
    "odd\n## Injected folder/line\n- [pwn](https://evil.example).mdx":
        "---\ntitle: Odd path\naudience: public\n---\nA path with newlines.\n",
    "guides/newline.mdx": "---\ntitle: \"Line one\\n## Injected heading\\n- [pwned](https://evil.example)\"\n"
                          "audience: public\n---\nA page whose title holds newlines.\n",
}
MIRROR = {
    "shared.mdx": f"---\ntitle: Shared page {S_MIRROR}\n---\nThe internal side: {S_MIRROR} widget keys.\n\n"
                  f"## Internal widget notes\nMore {S_MIRROR}.\n",
}
CODE = {
    "app/limits.py": "def allowed():\n    return True\n",
    "app/vault.py": f'VAULT = "{S_CODEFILE}"\n',
}


@pytest.fixture
def hostile_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three sources: docs (public pages, internal by default), mirror (internal, the same URLs)
    and server (code, developer). Keyword-only: no model loads."""
    repo = make_docs_repo(tmp_path / "acme", DOCS, docs_dir="docs")
    write_files(repo, CODE)
    os.symlink("vault.py", repo / "app" / "link.py")  # a symlink to the secret file
    os.symlink("/etc/passwd", repo / "app" / "passwd.py")  # a symlink out of the repository
    commit_all(repo, "code")
    make_docs_repo(tmp_path / "mirror", MIRROR, docs_dir="docs")
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "docs"\nrepo = "acme"\nurl_prefix = "/docs"\n\n'
        '[[sources]]\nname = "mirror"\nrepo = "mirror"\nurl_prefix = "/docs"\naudience = "internal"\n\n'
        '[[sources]]\nname = "server"\nkind = "code"\nrepo = "acme"\ninclude = ["app/**"]\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("SITE_NAME", "Acme Docs")
    monkeypatch.setenv("SITE_SUMMARY", "Acme answers questions.")
    monkeypatch.setenv("SEARCH_RATE_LIMIT", "100000")
    monkeypatch.setenv("MCP_RATE_LIMIT_PER_HOUR", "100000")
    monkeypatch.setenv("MCP_TOKENS", f"{TOKEN}=partner;{INTERNAL_TOKEN}=internal,developer")
    get_settings.cache_clear()
    return repo


def sync() -> None:
    get_settings.cache_clear()
    asyncio.run(sync_configured_sources())


def assert_clean(output: Any, secrets: tuple[str, ...] = SECRETS) -> None:
    text = (output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)).lower()
    leaked = [s for s in secrets if s in text]
    assert not leaked, (leaked, text[:3000])


def _get(server, path: str, **headers: str) -> httpx.Response:
    return httpx.get(server.url + path, headers=headers, timeout=30)


# A line of /llms.txt: the header, a section, or one link whose text cannot end early and whose URL
# holds no space or parenthesis (either would end the link and let a page name another target).
_ESCAPED = r"(?:[^\[\]\\\n]|\\.)*"
LLMS_LINE = re.compile(rf"^(?:# .+|> .+|## {_ESCAPED}|- \[{_ESCAPED}\]\([^()\s<>]+\)(?:: .*)?|)$")


def test_llms_files_hold_no_secret_and_no_injected_link(hostile_project, clean_db, db_env, start_server) -> None:
    sync()
    server = start_server()
    index = _get(server, "/llms.txt")
    full = _get(server, "/llms-full.txt")
    for response in (index, full):
        assert response.status_code == 200
        assert_clean(response.text)
        # Neither a token, a query string nor a cookie changes what these files hold: one text for all.
        for attempt in (_get(server, response.url.path, authorization=f"Bearer {INTERNAL_TOKEN}"),
                        _get(server, response.url.path + "?audience=internal&audiences=internal"),
                        _get(server, response.url.path, cookie="audience=internal", **{"x-audience": "internal"})):
            assert attempt.status_code == 200
            assert attempt.content == response.content and attempt.headers["etag"] == response.headers["etag"]
        assert response.headers["cache-control"].startswith("public")  # safe only because it is one text
    lines = index.text.split("\n")
    bad = [line for line in lines if not LLMS_LINE.match(line)]
    assert not bad, bad
    links = [line for line in lines if line.startswith("- [")]
    # Every visible page once, each pointing at its own page (the hostile path's URL encoded).
    targets = sorted(re.match(rf"- \[{_ESCAPED}\]\(([^)]*)\)", line).group(1) for line in links)
    assert len(targets) == len(set(targets)) == 6, links
    assert "http://127.0.0.1:8000/docs/guides/evil%29%20%5Bpwn%5D%28https:/evil.example%29%20x" in targets
    assert not [line for line in lines if line.startswith("## ") and "Injected" in line]
    assert "- [Evil\\](https://evil.example) <script>alert(1)</script> \\[x](" in index.text
    sources = re.findall(r"^Source: (.*)$", full.text, re.MULTILINE)
    assert len(sources) == 6 and all(re.fullmatch(r"[^()\s<>]+", url) for url in sources), sources


def test_a_page_made_internal_leaves_the_cached_files_at_the_next_sync(
    hostile_project, clean_db, db_env, start_server
) -> None:
    sync()
    server = start_server()
    before = _get(server, "/llms-full.txt")
    assert "Add the widget with one script tag." in before.text
    # Only the audience changes (the text stays): the sync rewrites metadata, and the cache follows.
    page = hostile_project / "docs" / "guides" / "widget.mdx"
    page.write_text(page.read_text().replace("audience: public", "audience: internal"))
    commit_all(hostile_project, "widget page goes internal")
    sync()
    after = _get(server, "/llms-full.txt", **{"if-none-match": before.headers["etag"]})
    assert after.status_code == 200 and after.headers["etag"] != before.headers["etag"]
    assert "Add the widget with one script tag." not in after.text
    assert "Embed the widget" not in _get(server, "/llms.txt").text


SEARCH_TRICKS = [
    "shared widget", "widget keys", "rotate keys runbook", "ops note", "console widget", "vault rotate",
    "Runbook", "internal widget notes", "partner program",
    *SECRETS, *(s[:6] for s in SECRETS), *(s[:9] + s[10:] for s in SECRETS),  # prefixes, one-letter typos
    f"{S_SLUG} ", f"runbook-{S_SLUG}", f"https://{S_LINK}.example/widget",
    "zz:* & !a | (b", "'; drop table docs_section; --", "\\", "widget\u202eetalsnart", "%00widget", "\x00widget\x00",
    "widget " * 28, "a" * 200,
]


def test_search_box_under_attack(hostile_project, clean_db, db_env, start_server) -> None:
    sync()
    server = start_server()
    outputs = []
    with httpx.Client(base_url=server.url, timeout=30) as client:
        found = client.get("/docs/search", params={"q": "shared widget"}).json()
        assert [p["title"] for p in found["results"]][:1] == ["Shared page"], found  # the public side is findable
        for query in SEARCH_TRICKS:
            for mode in ("keyword", "hybrid"):
                response = client.get("/docs/search", params={"q": query, "mode": mode, "limit": 20})
                assert response.status_code == 200, (query, response.text)
                outputs.append(response.json()["results"])  # the query itself is echoed: not checked
        # Bad input: a clear 400, never a crash.
        for params in ({"q": "a" * 201}, {"q": "widget", "limit": "0"}, {"q": "widget", "limit": "9" * 30},
                       {"q": "widget", "limit": "1.5"}, {"q": "widget", "mode": "vector"}, {"q": "widget", "mode": ""}):
            response = client.get("/docs/search", params=params)
            assert response.status_code == 400, (params, response.text)
        repeated = client.get("/docs/search?q=widget&q=" + S_TITLE + "&mode=keyword&mode=hybrid")
        assert repeated.status_code in (200, 400)
        outputs.append(repeated.json().get("results"))
    assert_clean(outputs)


INTERNAL_PAGE = f"/docs/ops/runbook-{S_SLUG}"
PAGE_TRICKS = [
    f"http://127.0.0.1:8000{INTERNAL_PAGE}", INTERNAL_PAGE, INTERNAL_PAGE + "/", INTERNAL_PAGE + "?x=1",
    INTERNAL_PAGE + "#rotate-the-keys", INTERNAL_PAGE.upper(), f"/docs/ops/./runbook-{S_SLUG}",
    f"/docs/ops/../ops/runbook-{S_SLUG}", "/" + INTERNAL_PAGE, INTERNAL_PAGE.replace("/ops/", "/ops%2F"),
    INTERNAL_PAGE.replace("/", "%2F"), INTERNAL_PAGE.lstrip("/"), INTERNAL_PAGE.replace("runbook-x", "runbook-%78"),
    f"http://127.0.0.1:8000@evil.example{INTERNAL_PAGE}", f"https://evil.example{INTERNAL_PAGE}",
    f"http://127.0.0.1:8000/docs/../docs/ops/runbook-{S_SLUG}", INTERNAL_PAGE + "\x00", INTERNAL_PAGE + "\n",
    " " + INTERNAL_PAGE + " ", INTERNAL_PAGE + "x" * 3000, "/docs/partners", "/code/app/vault.py",
    "http://127.0.0.1:8000/code/app/vault.py#L1-L1", "/docs/snippets/ops-note", "*", "%", "_",
]
FILE_TRICKS = [
    "app/vault.py", "app/limits.py", "app/link.py", "app/passwd.py", "/app/vault.py", "../acme/app/vault.py",
    "app/../app/vault.py", "app%2Fvault.py", "app\\vault.py", "./app/vault.py", "app/vault.py\x00", "/etc/passwd",
    "app//vault.py", " app/vault.py", "APP/VAULT.PY", "docs/ops/runbook-" + S_SLUG + ".mdx", ".git/config",
]


async def _call(session, tool: str, **arguments: Any) -> tuple[bool, Any]:
    """A tool call that must be answered: a request the server drops fails here, naming it."""
    try:
        return await asyncio.wait_for(call(session, tool, **arguments), 60)
    except TimeoutError:
        raise AssertionError(f"no answer to {tool}({arguments!r})") from None


async def _mcp_attempts(session) -> tuple[list[Any], list[tuple[bool, Any]]]:
    """(what search_docs said, what each get_page and read_file trick got)."""
    outputs: list[Any] = []
    tricks: list[tuple[bool, Any]] = []
    for query in ("rotate the keys runbook", "ops note", "shared widget page internal notes", "partner program",
                  "vault", *SECRETS):
        failed, found = await _call(session, "search_docs", query=query, limit=10)
        assert not failed, found
        outputs.append(found)
    for url in PAGE_TRICKS:
        tricks.append(await _call(session, "get_page", url=url))
    for path in FILE_TRICKS:
        for source in (None, "server", "../server", "docs", "mirror"):
            tricks.append(await _call(session, "read_file", path=path, **({"source": source} if source else {})))
    return outputs, tricks


async def test_mcp_under_attack_anonymous_partner_and_bad_tokens(
    hostile_project, clean_db, db_env, start_server
) -> None:
    get_settings.cache_clear()
    await sync_configured_sources()
    server = start_server()
    async with http_session(server.url) as session:
        outputs, tricks = await _mcp_attempts(session)
        failed, shared = await call(session, "get_page", url="/docs/shared")
        assert not failed and shared["text"] == "The public side of the shared widget page.", shared
    assert_clean([outputs, tricks])
    assert [t for t in tricks if not t[0]] == []  # every trick refused, with one message per tool
    assert {error for _, error in tricks} == {f"Error executing tool get_page: {NO_PAGE}",
                                              f"Error executing tool read_file: {NO_FILE}"}
    assert "root:" not in json.dumps(tricks)
    async with http_session(server.url, TOKEN) as session:  # partner: its page, nothing else
        partner = await _mcp_attempts(session)
        assert [t for t in partner[1] if not t[0]] == [(False, {"title": "Partner program", "place": "", "url":
                "http://127.0.0.1:8000/docs/partners", "text": f"Partners get the {S_PARTNER} widget."})]
        failed, page = await call(session, "get_page", url="/docs/partners")
        assert not failed and S_PARTNER in page["text"]
    assert_clean(partner, NOT_PARTNER)
    async with http_session(server.url, INTERNAL_TOKEN) as session:  # the secrets are there to be found
        failed, page = await call(session, "get_page", url=INTERNAL_PAGE)
        assert not failed and S_BODY in page["text"] and S_CODE in page["text"]
        failed, code = await call(session, "read_file", path="app/vault.py")
        assert not failed and S_CODEFILE in code["content"]
        for path in ("app/link.py", "app/passwd.py"):  # symlinks are never followed, even for insiders
            failed, error = await call(session, "read_file", path=path)
            assert failed, error
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_page", "arguments": {"url": INTERNAL_PAGE}}}
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        for authorization in (f"Bearer {INTERNAL_TOKEN}x", f"Bearer {INTERNAL_TOKEN[:-1]}", "Bearer", "",
                              f"Basic {INTERNAL_TOKEN}", f"Bearer {INTERNAL_TOKEN.upper()}", f"Bearer\t{TOKEN} x"):
            response = await client.post("/mcp", json=body, headers={**headers, "authorization": authorization})
            assert response.status_code == 401, (authorization, response.text)
            assert_clean(response.text)
        # The last Authorization header counts: a valid token followed by a bad one is refused.
        response = await client.post("/mcp", json=body, headers=[*headers.items(), ("authorization", f"Bearer {INTERNAL_TOKEN}"),
                                                                  ("authorization", "Bearer nope-nope-nope-nope")])
        assert response.status_code == 401
        for path in ("/mcp/", "/mcp/tools", "/mcp?token=" + INTERNAL_TOKEN):
            response = await client.post(path, json=body, headers=headers)
            assert response.status_code in (200, 307, 404, 405), (path, response.status_code)
            assert_clean(response.text)


async def test_mcp_opens_no_stream_a_caller_could_hold(clean_db, db_env, start_server) -> None:
    """Stateless: nothing is ever pushed on a GET stream, so none is opened (an open one holds a task
    and a connection for as long as an anonymous caller likes); there is no session to DELETE."""
    server = start_server()
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        for method in ("GET", "DELETE", "PUT"):
            try:
                response = await asyncio.wait_for(client.request(method, "/mcp", headers=headers), 20)
            except (TimeoutError, httpx.ReadTimeout):
                raise AssertionError(f"{method} /mcp held the connection open") from None
            assert response.status_code == 405 and response.headers["allow"] == "POST", (method, response.text)
