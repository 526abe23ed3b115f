"""The model's tools over code sources: read_file and list_directory at the synced commit.

They plug into the turn's ToolBox (app/chat/tools.py) next to search_docs. Git runs in a thread;
a path the source does not index is a status for the model, never an exception.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from app.chat.tools import ToolOutcome, ToolStatus
from app.corpus.code_source import code_tree
from app.corpus.code_tree import CodePathError, CodeTree
from app.corpus.sources import Source
from app.errors import DocschatError

# A turn with code tools makes at most this many model calls (the ToolBox allows one fewer tool calls).
MAX_MODEL_STEPS = 5


def tool_calls_with_code(calls_per_turn: int) -> int:
    """The ToolBox budget when code tools are offered: at most MAX_MODEL_STEPS model calls a turn
    (the ToolBox's loop makes one more model call than it allows tool calls)."""
    return min(calls_per_turn, MAX_MODEL_STEPS - 1)


def _source_parameter(trees: dict[str, CodeTree]) -> dict[str, Any]:
    names = ", ".join(sorted(trees))
    optional = " Optional: there is only one." if len(trees) == 1 else ""
    return {"type": "string", "description": f"The code source: one of {names}.{optional}"}


class _CodeTool:
    name = ""
    description = ""
    arguments: frozenset[str] = frozenset()

    def __init__(self, trees: dict[str, CodeTree]) -> None:
        self.trees = trees
        self.parameters: dict[str, Any] = {}

    def _tree(self, source: object) -> CodeTree:
        if source in (None, "") and len(self.trees) == 1:
            return next(iter(self.trees.values()))
        if not isinstance(source, str) or source not in self.trees:
            raise CodePathError(f"say which code source: one of {', '.join(sorted(self.trees))}")
        return self.trees[source]

    def _run(self, args: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    verbs = ("Reading", "Read", "Could not read")

    def started(self, args: dict[str, Any]) -> ToolStatus:
        return ToolStatus(f"{self.verbs[0]} {_shown_path(args)}")

    def returned(self, args: dict[str, Any], outcome: ToolOutcome) -> ToolStatus:
        if outcome.response.get("status") != "ok":
            return ToolStatus(f"{self.verbs[2]} {_shown_path(args)}", "unavailable")
        return ToolStatus(f"{self.verbs[1]} {_shown_path(args)}", "done")

    async def call(self, args: dict[str, Any]) -> ToolOutcome:
        unknown = sorted(set(args) - self.arguments)
        if unknown:
            return ToolOutcome({"available": True, "status": f"unknown arguments {unknown}; "
                                f"{self.name} takes {sorted(self.arguments)}"})
        try:
            result = await asyncio.to_thread(self._run, args)
        except CodePathError as exc:
            return ToolOutcome({"available": True, "status": str(exc)})
        except DocschatError as exc:  # git cannot read the repository any more
            return ToolOutcome({"available": False, "status": f"the repository cannot be read: {exc}"[:300]})
        return ToolOutcome({"available": True, "status": "ok", **result})


class ReadFileTool(_CodeTool):
    name = "read_file"
    description = (
        "Read a source file of the code repository at the indexed commit, with line numbers. Use it when "
        "the code excerpts show only part of what the question needs. Paths are relative to the "
        "repository root, as in the excerpts."
    )
    arguments = frozenset({"path", "start_line", "source"})

    def __init__(self, trees: dict[str, CodeTree]) -> None:
        super().__init__(trees)
        self.parameters = {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "e.g. app/rate_limit.py"},
                "start_line": {"type": "integer", "description": "First line to read (default 1)."},
                "source": _source_parameter(trees),
            },
            "required": ["path"],
        }

    def _run(self, args: dict[str, Any]) -> dict[str, Any]:
        if "path" not in args:
            raise CodePathError("read_file needs 'path'")
        return self._tree(args.get("source")).read_file(args["path"], args.get("start_line", 1))


class ListDirectoryTool(_CodeTool):
    name = "list_directory"
    verbs = ("Listing", "Listed", "Could not list")
    description = (
        "List the folders and source files directly under a folder of the code repository "
        "('' for the root), at the indexed commit."
    )
    arguments = frozenset({"path", "source"})

    def __init__(self, trees: dict[str, CodeTree]) -> None:
        super().__init__(trees)
        self.parameters = {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "e.g. app/chat"}, "source": _source_parameter(trees)},
        }

    def _run(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._tree(args.get("source")).list_directory(args.get("path", ""))


def _shown_path(args: dict[str, Any]) -> str:
    """The path a call names, as the reader sees it in a status ("/" for the root)."""
    path = args.get("path")
    text = " ".join(path.split()) if isinstance(path, str) else ""
    if not text:
        return "/"
    return text if len(text) <= 120 else text[:119] + "…"


def code_tools(trees: dict[str, CodeTree]) -> list[_CodeTool]:
    """read_file and list_directory over `trees` (code source name → its tree at the synced commit)."""
    return [ReadFileTool(trees), ListDirectoryTool(trees)] if trees else []


async def visible_code_trees(
    pool: asyncpg.Pool, sources: tuple[Source, ...], audiences: list[str] | None, cache: dict[tuple[str, str], CodeTree]
) -> dict[str, CodeTree]:
    """The code sources the asker may see (`audiences` None: all), each at its synced commit.
    A source never synced has no commit yet, so no tree. `cache` keeps one tree per (source,
    commit) so its file listing is read once."""
    visible = [s for s in sources if audiences is None or set(s.audiences) & set(audiences)]
    if not visible:
        return {}
    async with pool.acquire() as conn:
        rows = await conn.fetch(
            "select source, commit from public.docs_source_commit where source = any($1::text[])",
            [s.name for s in visible],
        )
    commits = {r["source"]: r["commit"] for r in rows}
    trees: dict[str, CodeTree] = {}
    for source in visible:
        commit = commits.get(source.name)
        if commit:
            trees[source.name] = cache.setdefault((source.name, commit), code_tree(source, commit))
    return trees
