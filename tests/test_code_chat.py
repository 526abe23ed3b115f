"""A code source end to end: docschat.toml → sync (commit recorded) → the chat over real HTTP links
code excerpts to their exact lines, and with Gemini the model reads files at the synced commit."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.config import get_settings
from app.corpus.sources import load_sources
from tests.helpers import commit_all, git, make_docs_repo, parse_sse, sync_configured_sources, write_files

DATA = Path(__file__).parent / "data" / "code"
LINK = "https://github.com/acme/server/blob/{commit}/{path}#L{start}-L{end}"


@pytest.fixture
def code_project(tmp_path: Path, monkeypatch) -> tuple[Path, str]:
    """A repository with docs and code, and a docschat.toml (in the working folder) naming both."""
    repo = make_docs_repo(tmp_path / "server", {
        "docs/intro.mdx": "---\ntitle: Introduction\naudience: public\n---\nThe server answers questions.\n",
        "app/limits.py": (DATA / "limits.py").read_text(),
        "app/web/widget.tsx": (DATA / "widget.tsx").read_text(),
        "app/.env": "GEMINI_API_KEY=very-secret\n",
        "tests/test_limits.py": "def test_storage():\n    assert PostgresLimitsStorage\n",
    }, docs_dir=".")
    commit = git(repo, "rev-parse", "HEAD").strip()
    (tmp_path / "docschat.toml").write_text(
        f'[[sources]]\nname = "docs"\nrepo = "server"\ndir = "docs"\n\n'
        f'[[sources]]\nname = "server"\nkind = "code"\nrepo = "server"\nlink = "{LINK}"\n'
    )
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "100")
    get_settings.cache_clear()
    return repo, commit


def _chat(server, question: str) -> list[dict]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        response = client.post("/docs/chat", json={"message": question})
        assert response.status_code == 200
        return [p for p in parse_sse(response.text) if isinstance(p, dict)]


async def test_sync_of_a_code_source_records_its_commit_and_defaults(pool, code_project, db_env) -> None:
    repo, commit = code_project
    config = load_sources(get_settings())
    code = config.source("server")
    assert (code.kind, code.weight, code.audiences, code.dir) == ("code", 0.8, ("developer",), ".")
    await sync_configured_sources()
    async with pool.acquire() as conn:
        assert await conn.fetchval("select commit from docs_source_commit where source = 'server'") == commit
        rows = {r["id"]: r for r in await conn.fetch("select * from docs_section where source = 'server'")}
        shown = await conn.fetchval(
            "select public.docs_section_href(d.href, c.commit, c.fill_hrefs) from docs_section d"
            " join docs_source_commit c using (source) where d.id = 'server:app/limits.py#PostgresLimitsStorage'")
    storage = rows["server:app/limits.py#PostgresLimitsStorage"]
    # Stored with {commit} left in (a new commit rewrites no unchanged row), read filled.
    assert storage["href"] == "https://github.com/acme/server/blob/{commit}/app/limits.py#L8-L23"
    assert shown == f"https://github.com/acme/server/blob/{commit}/app/limits.py#L8-L23"
    assert list(storage["audiences"]) == ["developer"] and storage["page"] == "app/limits.py"
    assert {r["page"] for r in rows.values()} == {"app/limits.py", "app/web/widget.tsx"}  # no tests, no .env


def test_a_code_question_through_the_chat_links_the_exact_lines(pool, code_project, db_env, start_server, monkeypatch) -> None:
    import asyncio

    repo, commit = code_project
    asyncio.run(sync_configured_sources())
    monkeypatch.setenv("CHAT_AUDIENCES", "public,developer")
    parts = _chat(start_server(), "Where is PostgresLimitsStorage incr implemented?")
    urls = [p["url"] for p in parts if p["type"] == "source-url"]
    assert urls[0] == f"https://github.com/acme/server/blob/{commit}/app/limits.py#L8-L23"
    text = "".join(p["delta"] for p in parts if p["type"] == "text-delta")
    assert "async def incr" in text  # the offline answer quotes the code it found


def test_every_door_shows_code_hrefs_at_the_synced_commit(pool, code_project, db_env, start_server,
                                                          monkeypatch) -> None:
    """The chat's citations, the search box, the page list, MCP search_docs and get_page (given
    the link a reader followed) show a `{commit}` link filled with the commit synced, and follow
    the next sync at once (the search box's cache included); a docs page whose own href holds a
    literal `{commit}` keeps it."""
    import asyncio
    import re

    from tests.test_mcp import call, http_session

    repo, first = code_project
    write_files(repo, {"docs/keep-{commit}.mdx": "---\ntitle: Braces\naudience: public\n---\nThe braces page.\n"})
    commit_all(repo, "a docs page named with braces")
    monkeypatch.setenv("CHAT_AUDIENCES", "public,developer")
    server = start_server()

    def doors() -> dict[str, str]:
        """What each door shows, as text."""
        async def mcp(url: str) -> tuple[str, str]:
            async with http_session(server.url) as session:
                _, found = await call(session, "search_docs", query="PostgresLimitsStorage incr", limit=3)
                failed, page = await call(session, "get_page", url=url)
                return str(found), str(page) if not failed else "no page"

        commit = git(repo, "rev-parse", "HEAD").strip()
        link = f"https://github.com/acme/server/blob/{commit}/app/limits.py#L8-L23"
        with httpx.Client(base_url=server.url, timeout=30) as client:
            shown = {
                "chat": str([p for p in _chat(server, "Where is PostgresLimitsStorage incr implemented?")
                             if p["type"] == "source-url"]),
                "search box": client.get("/docs/search", params={"q": "PostgresLimitsStorage"}).text,
                "braces": client.get("/docs/search", params={"q": "braces page"}).text,
                "page list": client.get("/docs").text,
                "llms": client.get("/llms.txt").text + client.get("/llms-full.txt").text,
            }
        shown["mcp search"], shown["mcp get_page"] = asyncio.run(mcp(link))
        return shown

    def commits_in(text: str) -> set[str]:
        return set(re.findall(r"github\.com/acme/server/blob/([^/]+)/", text))

    def doors_linking_code_at(commit: str) -> dict[str, str]:
        """Every door's text, each door that shows code links naming `commit` and no other."""
        shown = doors()
        for door, text in shown.items():
            if door not in ("braces", "llms"):
                assert commits_in(text) == {commit}, door
        return shown

    asyncio.run(sync_configured_sources())
    at_first = git(repo, "rev-parse", "HEAD").strip()
    shown = doors_linking_code_at(at_first)
    # A docs page's href is not filled; /llms.txt lists docs pages only (code sources left out).
    assert "keep-{commit}" in shown["braces"] and "keep-%7Bcommit%7D" in shown["llms"]  # llms.txt quotes URLs
    assert not commits_in(shown["llms"]) and at_first not in shown["llms"]

    commit_all(repo, "an empty commit")  # a new commit: no row is written, every door follows it
    asyncio.run(sync_configured_sources())
    now = git(repo, "rev-parse", "HEAD").strip()
    shown = doors_linking_code_at(now)
    assert "keep-{commit}" in shown["braces"] and now not in shown["braces"] and first != now


def test_the_default_chat_audience_never_sees_code(pool, code_project, db_env, start_server) -> None:
    import asyncio

    asyncio.run(sync_configured_sources())
    parts = _chat(start_server(), "Where is PostgresLimitsStorage incr implemented?")
    assert not any("limits.py" in str(p) for p in parts)


def test_with_gemini_the_model_reads_the_synced_commit(pool, code_project, db_env, start_server, fake_gemini,
                                                      monkeypatch) -> None:
    import asyncio

    repo, commit = code_project
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    asyncio.run(sync_configured_sources())
    # A later commit is not synced: the model must still read what the index links to.
    write_files(repo, {"app/limits.py": "LATER = True\n"})
    commit_all(repo, "later")
    monkeypatch.setenv("CHAT_AUDIENCES", "public,developer")
    fake_gemini.replies = [
        [{"functionCall": {"name": "read_file", "args": {"path": "app/limits.py", "start_line": 21}}}],
        [{"functionCall": {"name": "list_directory", "args": {"path": "app"}}}],
    ]
    fake_gemini.answer_parts = ["`incr` adds a hit (app/limits.py lines 21-23)."]
    parts = _chat(start_server(), "How does PostgresLimitsStorage incr work?")
    assert "".join(p["delta"] for p in parts if p["type"] == "text-delta") == "`incr` adds a hit (app/limits.py lines 21-23)."
    calls = fake_gemini.generate_calls()
    assert len(calls) == 3
    declared = {f["name"] for t in calls[0]["body"]["tools"] for f in t["functionDeclarations"]}
    assert {"read_file", "list_directory", "search_docs"} <= declared
    prompt = calls[0]["body"]["contents"][-1]["parts"][0]["text"]
    assert "app/limits.py lines 8-23:\n```python\n# Storage for the limits library." in prompt
    read = [p["functionResponse"] for c in calls[1]["body"]["contents"] for p in c["parts"] if "functionResponse" in p][0]
    assert read["response"]["commit"] == commit
    assert read["response"]["content"].startswith("21:     async def incr(self, key, expiry):")
    listing = [p["functionResponse"] for c in calls[2]["body"]["contents"] for p in c["parts"] if "functionResponse" in p][-1]
    assert listing["response"]["entries"] == ["web/", "limits.py"]  # no .env


def test_with_gemini_the_public_chat_gets_no_code_tools(pool, code_project, db_env, start_server, fake_gemini,
                                                       monkeypatch) -> None:
    import asyncio

    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    asyncio.run(sync_configured_sources())
    _chat(start_server(), "What does the server answer?")
    calls = fake_gemini.generate_calls()
    assert calls
    declared = {f["name"] for t in calls[0]["body"].get("tools", []) for f in t["functionDeclarations"]}
    assert "read_file" not in declared and "list_directory" not in declared


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('name = "s"\nkind = "code"\nlink = "https://x/blob/{commit}"', "'link' must contain {path}"),
        ('name = "s"\nlink = "https://x/{path}"', "'link' is for kind = \"code\" sources"),
        ('name = "s"\nkind = "binary"', "kind 'binary' is not supported (docs, code)"),
    ],
)
def test_code_source_settings_are_checked(tmp_path: Path, table: str, message: str) -> None:
    from app.errors import ConfigError

    path = tmp_path / "docschat.toml"
    path.write_text(f"[[sources]]\n{table}\n")
    with pytest.raises(ConfigError) as error:
        load_sources(get_settings())
    assert str(error.value).startswith(f"{path}: source 's'") and message in str(error.value)
