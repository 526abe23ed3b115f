"""An adversary's probes of issue 30's new doors (feedback, the synced pages' Markdown, /code), over
real HTTP against the real app, a real Postgres and the fake Gemini."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import httpx

from app.config import get_settings
from tests.helpers import docschat_in_process, seed_docs
from tests.test_admin import query
from tests.test_chat import DOCS
from tests.test_feedback import _ask, _rate, _start


def test_hostile_feedback_bodies_are_4xx_naming_what_was_wrong(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        message_id = _start(_ask(client, "How do I embed the widget with a script tag?"))
        json_type = {"content-type": "application/json"}
        cases = {
            b"[" * 5000: "nested",  # deeper than Python's recursion limit
            b"\xff\xfe{}": "JSON",
            b"": "JSON",
            b"null": "object",
            b'{"messageId": 12, "rating": "up"}': "messageId",
            b'{"messageId": "\\u0661\\u0662", "rating": "up"}': "messageId",  # Arabic-Indic digits
            b'{"messageId": "' + message_id.encode() + b'", "rating": ["up"]}': "rating",
            b'{"messageId": "' + message_id.encode() + b'", "rating": "UP"}': "rating",
            b'{"messageId": "' + message_id.encode() + b'", "rating": "up", "comment": 5}': "comment",
            b'{"messageId": "' + message_id.encode() + b'", "rating": "up", "comment": "' + b"x" * 9000 + b'"}': "bytes",
        }
        for body, named in cases.items():
            response = client.post("/docs/chat/feedback", content=body, headers=json_type)
            assert response.status_code == 400, (body[:40], response.status_code, response.text[:200])
            assert named in response.json()["detail"], (body[:40], response.json())
        wrong_type = client.post("/docs/chat/feedback", content=b"messageId=x", headers={"content-type": "text/plain"})
        assert wrong_type.status_code == 415
        # A user message has no key and a key of another shape names nothing: 404, not 500.
        assert _rate(client, "a" * 64, "up").status_code == 404
        # A lone surrogate and a NUL in the comment are stored as Postgres takes them.
        lone = client.post("/docs/chat/feedback", content=b'{"messageId": "' + message_id.encode()
                           + b'", "rating": "down", "comment": "a\\ud800b\\u0000c"}', headers=json_type)
        assert lone.status_code == 200, lone.text
    (row,) = query(offline, "select rating, comment from docs_chat_feedback")
    assert (row["rating"], row["comment"]) == (-1, "a\ufffdbc")


def test_concurrent_double_submits_store_one_rating(offline, start_server) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        message_id = _start(_ask(client, "How do I run a sync?"))
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda i: _rate(client, message_id, "up" if i % 2 else "down", f"c{i}").status_code,
                                  range(8)))
    assert codes == [200] * 8
    rows = query(offline, "select rating, comment from docs_chat_feedback")
    assert len(rows) == 1 and rows[0]["comment"] in {f"c{i}" for i in range(8)}


def test_a_comment_cannot_write_terminal_escapes_into_the_operators_terminal(offline, start_server, db_env) -> None:
    seed_docs(offline, DOCS)
    server = start_server()
    hostile = "fine\x1b]0;owned\x07\x1b[2J\x1b[31mred\x9b31m\rgone"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        message_id = _start(_ask(client, "How do I run a sync?\x1b[8m"))  # a question is the visitor's too
        assert _rate(client, message_id, "down", hostile).status_code == 200
    table = docschat_in_process("feedback", env={"DATABASE_URL": db_env, "COLUMNS": "300"})
    assert table.returncode == 0, table.stderr
    assert "fine" in table.stdout and "red" in table.stdout
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", table.stdout), repr(table.stdout)
    # --json keeps the text exactly, every control character escaped (C1 too: U+009B is a CSI).
    lines = docschat_in_process("feedback", "--json", env={"DATABASE_URL": db_env}).stdout
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", lines), repr(lines)
    assert json.loads(lines)["comment"] == hostile


# --- the synced pages and /code -----------------------------------------------------------------

HOSTILE_PAGE = (
    "---\ntitle: \"</title><script>alert('title')</script>\"\npublic: true\n---\n"
    "Intro <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n"
    "## Links <b onmouseover=alert(3)>\n"
    "[a](javascript:alert(1)) [b](<JaVaScRiPt:alert(1)>) [c](&#106;avascript:alert(1)) [d](//evil.example/x) "
    "[e](/\\evil.example) [f](https:evil.example) [g](http://u:p@evil.example) [h](data:text/html,hi) "
    "[i][r] <javascript:alert(1)> [k](vbscript:x) [l](/docs/x/..//evil.example) [ok](https://ok.example/y) "
    "[sib](sync.mdx) ![img](https://evil.example/t.png)\n\n"
    "[r]: javascript:alert(1)\n\n```\"><script>alert(4)</script>\ncode\n```\n"
)
INTERNAL_PAGE = "---\ntitle: Runbook\naudience: internal\n---\nThe rotation password is hunter2-internal.\n"


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.scripts: list[str] = []
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.append(dict(attrs).get("href") or "")
        if tag == "script":
            self.scripts.append(dict(attrs).get("src") or "inline")
        self.handlers += [name for name, _ in attrs if name.startswith("on")]


def test_hostile_markdown_draws_no_script_and_no_foreign_scheme_link(offline, start_server) -> None:
    # .md: raw HTML is CommonMark's; MDX 3 refuses this page as .mdx (unquoted attributes), so it would not be indexed
    seed_docs(offline, {**DOCS, "hostile.md": HOSTILE_PAGE, "runbook.mdx": INTERNAL_PAGE})
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        index = client.get("/docs")
        page = client.get("/docs/hostile")
        assert page.status_code == 200, page.text[:300]
        for html_text in (index.text, page.text):
            parsed = _Anchors()
            parsed.feed(html_text)
            assert parsed.scripts == ["/docs/chat/widget.js"] and parsed.handlers == [], parsed.scripts
            for href in parsed.hrefs:
                absolute = urljoin(server.url + "/docs/hostile", href)
                assert urlsplit(absolute).scheme in ("http", "https"), href
                assert href.startswith(("/", "#", "https://ok.example", "https://evil.example/t.png")), href
                assert not href.startswith("//"), href
        assert "/docs/sync" in page.text  # a sibling page's link is the page's route
        assert "hunter2" not in index.text and "Runbook" not in index.text
        assert client.get("/docs/runbook").status_code == 404
        for path in ("/docs/%ff", "/docs/%00", "/docs/..%2f..%2fetc%2fpasswd", "/code/", "/code/%ff", "/code/%c0%ae%c0%ae/x",
                     "/code/" + "a/" * 2000 + "x.py", "/docs/" + "a" * 20000):
            response = client.get(path)
            assert 400 <= response.status_code < 500, (path[:40], response.status_code, response.text[:200])


def test_code_view_hides_symlinks_and_escapes_hostile_names_and_content(tmp_path, monkeypatch, clean_db, db_env,
                                                                        start_server) -> None:
    from tests.helpers import commit_all, git, make_docs_repo
    from tests.test_feedback import _sync_sources

    repo = make_docs_repo(tmp_path / "server", {
        "docs/intro.mdx": "---\ntitle: Introduction\naudience: public\n---\nThe server answers questions.\n",
        "app/ok.py": "X = '</script><script>alert(1)</script>'\n# <img src=x onerror=alert(2)>\n",
        'app/we"ird<b>.py': "Y = 1\n",
        "app/.env": "GEMINI_API_KEY=very-secret\n",
        "secret.py": "PASSWORD = 'outside-the-source'\n",
    }, docs_dir=".")
    (repo / "app" / "link.py").symlink_to(".env")
    (repo / "app" / "up.py").symlink_to("../secret.py")
    commit_all(repo, "symlinks")
    assert "120000" in git(repo, "ls-tree", "HEAD", "app/link.py")
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "docs"\nrepo = "server"\ndir = "docs"\n\n'
        '[[sources]]\nname = "server"\nkind = "code"\nrepo = "server"\ndir = "app"\naudience = "public"\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    _sync_sources()
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        page = client.get("/code/app/ok.py")
        assert page.status_code == 200
        parsed = _Anchors()
        parsed.feed(page.text)
        assert parsed.scripts == ["/docs/chat/code.js", "/docs/chat/widget.js"] and parsed.handlers == []
        odd = client.get("/code/app/we%22ird%3Cb%3E.py")
        assert odd.status_code == 200 and "<b>" not in odd.text and "we&quot;ird&lt;b&gt;.py" in odd.text
        for path in ("/code/app/link.py", "/code/app/up.py", "/code/secret.py", "/code/app/%2e%2e/secret.py",
                     "/code/app%2f..%2fsecret.py", "/code//etc/passwd", "/code/app/.env"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert "very-secret" not in response.text and "outside-the-source" not in response.text


async def test_rating_an_answer_while_its_chat_is_cleared_is_not_found_not_a_crash(pool) -> None:
    """Clear Chat commits while the rating waits on the answer's row: the rating names nothing."""
    import asyncio

    from app.chat.feedback import FeedbackRequest, record_feedback
    from app.chat.sessions import add_message, delete_session, upsert_session

    async with pool.acquire() as conn:
        session = await upsert_session(conn, None, ["public"])
        await add_message(conn, session, "user", "How do I run a sync?")
        await add_message(conn, session, "assistant", "Run docschat sync.", [], "k" * 32)
    async with pool.acquire() as clearing, pool.acquire() as rating:
        transaction = clearing.transaction()
        await transaction.start()
        assert await delete_session(clearing, session, ["public"])  # the cascade holds the answer's row
        rated = asyncio.ensure_future(record_feedback(rating, session, FeedbackRequest("k" * 32, -1, None), ["public"]))

        async def waiting() -> bool:  # a third connection: pg_stat_activity is fixed within a transaction
            async with pool.acquire() as watcher:
                rows = await watcher.fetch("select 1 from pg_catalog.pg_stat_activity where wait_event_type = 'Lock'"
                                           " and query like '%record_docs_chat_feedback%'")
            return bool(rows)

        for _ in range(200):
            if await waiting() or rated.done():
                break
            await asyncio.sleep(0.05)
        await transaction.commit()
        assert await rated is False
    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from public.docs_chat_feedback") == 0
