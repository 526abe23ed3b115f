"""The model's code tools: read_file and list_directory at the synced commit, through the real
google-genai client against the fake Gemini server; at most five model steps a turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.chat.answerers import Excerpt, GeminiAnswerer
from app.chat.code_tools import MAX_MODEL_STEPS, code_tools, tool_calls_with_code
from app.chat.tools import ToolBox
from app.corpus.code import DEFAULT_CODE_EXCLUDE, DEFAULT_CODE_INCLUDE
from app.corpus.code_tree import CodePathError, CodeTree
from app.embeddings.gemini import make_client
from tests.helpers import commit_all, git, make_docs_repo, write_files

DATA = Path(__file__).parent / "data" / "code"


@pytest.fixture
def code_repo(tmp_path: Path) -> tuple[Path, str]:
    repo = make_docs_repo(tmp_path / "server", {
        "app/limits.py": (DATA / "limits.py").read_text(),
        "app/web/widget.tsx": (DATA / "widget.tsx").read_text(),
        "app/.env": "GEMINI_API_KEY=very-secret\n", "app/.env.local.js": "export const KEY = \"very-secret\";\n",
        "app/server.key": "-----BEGIN PRIVATE KEY-----\n",
        "tests/test_limits.py": "def test_x():\n    pass\n",
        "app/huge.js": "export const data = [" + "1," * 200_000 + "];\n",
        "README.md": "# server\n",
    }, docs_dir=".")
    commit = git(repo, "rev-parse", "HEAD").strip()
    # A later commit must not leak into what the tools read: they read the synced commit.
    write_files(repo, {"app/limits.py": "LATER = True\n", "app/new.py": "def new():\n    pass\n"})
    commit_all(repo, "later")
    return repo, commit


def tree(repo: Path, commit: str) -> CodeTree:
    return CodeTree(repo, commit, ".", tuple(DEFAULT_CODE_INCLUDE), tuple(DEFAULT_CODE_EXCLUDE), max_read_chars=400)


def test_the_tree_shows_only_indexed_files_at_the_synced_commit(code_repo) -> None:
    code = tree(*code_repo)
    assert code.list_directory("")["entries"] == ["app/"]
    assert code.list_directory("app")["entries"] == ["web/", "limits.py"]
    read: dict[str, Any] = code.read_file("app/limits.py")
    assert read["content"].splitlines()[0] == '1: """Rate limits kept in Postgres."""'
    assert read["truncated"] is True and read["end_line"] < read["total_lines"] == 33  # size-capped
    assert code.read_file("app/limits.py", 32)["content"] == "32: def client_ip(scope):\n33:     return scope[\"client\"][0]"
    for path in ("app/huge.js", "app/.env", "app/.env.local.js", "app/server.key", "tests/test_limits.py", "README.md", "app/new.py",
                 "../server/app/limits.py", "/etc/passwd", "app/../../etc/passwd"):
        with pytest.raises(CodePathError):
            code.read_file(path)
    with pytest.raises(CodePathError):
        code.list_directory("tests")


EXCERPT = Excerpt(1, "app/limits.py", "https://github.com/acme/server/blob/c/app/limits.py#L8-L23",
                  "PostgresLimitsStorage", "app/limits.py lines 8-23:\n```python\nclass PostgresLimitsStorage: ...\n```")


def _function_responses(request: dict) -> list[dict]:
    return [p["functionResponse"] for c in request["body"]["contents"] for p in c.get("parts", []) if "functionResponse" in p]


def toolbox(repo: Path, commit: str, calls_per_turn: int = 3) -> ToolBox:
    return ToolBox(code_tools({"server": tree(repo, commit)}), max_calls=tool_calls_with_code(calls_per_turn),
                   timeout_seconds=5)


async def answer(fake_gemini, tools: ToolBox, question: str = "how does incr work?") -> str:
    answerer = GeminiAnswerer(make_client("test-key", fake_gemini.url), "gemini-test")
    return "".join([e async for e in answerer.stream(question, [EXCERPT], [], tools) if isinstance(e, str)])


async def test_the_model_lists_and_reads_files_through_the_tools(fake_gemini, code_repo) -> None:
    repo, commit = code_repo
    fake_gemini.replies = [
        [{"functionCall": {"name": "list_directory", "args": {"path": "app"}}}],
        [{"functionCall": {"name": "read_file", "args": {"path": "app/limits.py", "start_line": 21}}},
         {"functionCall": {"name": "read_file", "args": {"path": "app/.env.local.js"}}}],
    ]
    fake_gemini.answer_parts = ["incr adds a hit ", "(app/limits.py lines 21-23)."]
    assert await answer(fake_gemini, toolbox(repo, commit)) == "incr adds a hit (app/limits.py lines 21-23)."
    calls = fake_gemini.generate_calls()
    assert len(calls) == 3
    declared = {f["name"] for t in calls[0]["body"]["tools"] for f in t["functionDeclarations"]}
    assert declared == {"read_file", "list_directory"}
    listing = _function_responses(calls[1])
    assert listing[0]["name"] == "list_directory" and listing[0]["response"]["entries"] == ["web/", "limits.py"]
    read, secret = _function_responses(calls[2])[-2:]
    assert read["response"]["content"].startswith("21:     async def incr(self, key, expiry):")
    assert read["response"]["commit"] == commit
    assert "not a file this source indexes" in secret["response"]["status"]
    assert "very-secret" not in str(calls[2]["body"])


async def test_a_turn_with_code_tools_makes_at_most_five_model_steps(fake_gemini, code_repo) -> None:
    repo, commit = code_repo
    fake_gemini.replies = [[{"functionCall": {"name": "list_directory", "args": {"path": ""}}}]] * 4
    # Even when the setting allows ten tool calls, a turn with code tools makes five model calls.
    assert await answer(fake_gemini, toolbox(repo, commit, calls_per_turn=10)) == "The answer comes from the excerpts."
    calls = fake_gemini.generate_calls()
    assert len(calls) == MAX_MODEL_STEPS == 5
    modes = [c["body"]["toolConfig"]["functionCallingConfig"]["mode"] for c in calls]
    assert modes == ["AUTO"] * 4 + ["NONE"]  # the last call may not call tools: it answers


async def test_bad_tool_calls_come_back_as_statuses_not_crashes(fake_gemini, code_repo) -> None:
    repo, commit = code_repo
    fake_gemini.replies = [[
        {"functionCall": {"name": "delete_file", "args": {"path": "app/limits.py"}}},
        {"functionCall": {"name": "read_file", "args": {"path": 7}}},
        {"functionCall": {"name": "read_file", "args": {"path": "app/limits.py", "mode": "w"}}},
    ], [
        {"functionCall": {"name": "read_file", "args": {}}},
        {"functionCall": {"name": "list_directory", "args": {"path": "app", "source": "other"}}},
    ]]
    assert await answer(fake_gemini, toolbox(repo, commit, calls_per_turn=4), "q") == "The answer comes from the excerpts."
    calls = fake_gemini.generate_calls()
    responses = _function_responses(calls[1]) + _function_responses(calls[2])[-2:]
    assert len(responses) == 5
    assert all(r["response"].get("status") != "ok" and "content" not in r["response"] for r in responses)
