"""An adversary's probes of issue 30's new doors (feedback, the synced pages' Markdown, /code), over
real HTTP against the real app, a real Postgres and the fake Gemini."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.helpers import seed_docs
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
    table = subprocess.run([sys.executable, "-m", "app", "feedback"], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "DATABASE_URL": db_env, "COLUMNS": "300"})
    assert table.returncode == 0, table.stderr
    assert "fine" in table.stdout and "red" in table.stdout
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", table.stdout), repr(table.stdout)
