"""The model's tools over code sources: read_file(path) and list_directory(path) at the synced commit."""

from __future__ import annotations

from typing import Any

from app.chat.tools import Tool
from app.corpus.code_tree import CodePathError, CodeTree


def _tree(trees: dict[str, CodeTree], source: object) -> CodeTree:
    if source in (None, ""):
        if len(trees) == 1:
            return next(iter(trees.values()))
        raise CodePathError(f"say which source: one of {', '.join(sorted(trees))}")
    if source not in trees:
        raise CodePathError(f"no code source named {source!r}; the code sources are {', '.join(sorted(trees))}")
    return trees[source]  # type: ignore[index]


def code_tools(trees: dict[str, CodeTree]) -> list[Tool]:
    """read_file and list_directory over `trees` (code source name → its tree); none without trees."""
    if not trees:
        return []
    source_arg: dict[str, Any] = {
        "type": "string", "description": f"The code source: one of {', '.join(sorted(trees))}"
        + (" (optional: there is only one)." if len(trees) == 1 else "."),
    }

    def read_file(path: str, start_line: int = 1, source: str | None = None) -> dict[str, Any]:
        return _tree(trees, source).read_file(path, start_line)

    def list_directory(path: str = "", source: str | None = None) -> dict[str, Any]:
        return _tree(trees, source).list_directory(path)

    return [
        Tool(
            "read_file",
            "Read a source file of the repository at the indexed commit, with line numbers. Use it when "
            "the excerpts show only part of the code you need. Paths are relative to the repository root, "
            "as in the excerpts.",
            {"type": "object", "properties": {
                "path": {"type": "string", "description": "e.g. app/chat/rate_limit.py"},
                "start_line": {"type": "integer", "description": "First line to read (default 1)."},
                "source": source_arg,
            }, "required": ["path"]},
            read_file,
        ),
        Tool(
            "list_directory",
            "List the folders and source files directly under a folder of the repository ('' for the root).",
            {"type": "object", "properties": {
                "path": {"type": "string", "description": "e.g. app/chat"},
                "source": source_arg,
            }},
            list_directory,
        ),
    ]
