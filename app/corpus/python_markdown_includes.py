"""The include extensions tiangolo's sites (FastAPI, Typer, SQLModel) write their examples with, run
by the page reader's worker (python_markdown.py) on the source's git tree, as pymdownx.snippets is
(python_markdown_extensions.py).

`markdown_include_variants` turns a line `{* docs_src/x/tutorial001_py310.py ln[3:9] hl[5] *}` into
Markdown: a tab titled with the Python version holding the file as a `python` fence, then a closed
"Other versions and variants" box with each variant found beside it (the file's or its folder's
`_an`, `_py39`, `_py310`, `_py311` suffixes). `mdx_include` then fills in that fence's `{!path!}`
(`{!path[ln:3-9]!}`: those lines), and any `{!path!}` a page writes itself. Both open files on the
disk, relative to the folder MkDocs runs in (mkdocs.yml's, the root of the source's files):
`markdown_include_variants` the `{* *}` path and each of its 16 possible variants, `mdx_include`
the path joined to its `base_path`. The real extensions run here, their files taken from the tree:
each path they may open is asked of the parent process (`ask`: the page's key then depends on it,
compose.py) and written into a folder of the worker's sandbox, emptied for each page; a path that
leads out of the tree (`../x`, `/etc/passwd`, `~/x`) is never asked for, a file outside that folder
never opened, a URL never downloaded (`allow_remote` off).

A `{* *}` line naming a file the tree does not hold fails the real build (FileNotFoundError); here
only that line is left out, reported as a snippet that pastes nothing, and the page is read.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
from collections.abc import Callable
from typing import Any

from app.corpus.python_markdown_extensions import _in_tree

INCLUDE_EXTENSIONS = ("markdown_include_variants", "mdx_include")


def import_quietly() -> None:
    """mdx_include, imported with the root logger left as it was: the module calls
    `logging.basicConfig()` when imported, a stderr handler on the root logger of the whole process
    (issue 46: no process-wide side effects). Once imported, it is not imported again."""
    import importlib
    import logging

    root = logging.getLogger()
    handlers = list(root.handlers)
    importlib.import_module("mdx_include.mdx_include")
    root.handlers[:] = handlers
_FOLDER = "include"  # under the sandbox: pymdownx.snippets empties the sandbox's root for each page


class _TreeFiles:
    """The tree's files one page asked for, copied into `root` (emptied by `reset`, for each page)."""

    def __init__(self, root: str, ask: Callable[[str], str | None]) -> None:
        self.root, self.ask = root, ask
        self.held: dict[str, bool] = {}  # path asked for → the tree has it
        self.unresolved: list[str] = []

    def reset(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)
        self.held, self.unresolved = {}, []

    def fetch(self, relative: str) -> bool:
        """The tree's file at `relative` copied into the folder; False when the tree holds none."""
        if relative not in self.held:
            text = self.ask(relative)
            self.held[relative] = text is not None
            try:
                if text is not None:
                    os.makedirs(os.path.dirname(os.path.join(self.root, relative)), exist_ok=True)
                    with open(os.path.join(self.root, relative), "w", encoding="utf-8") as file:
                        file.write(text)
            except OSError:  # a file where the tree has a folder
                self.held[relative] = False
        return self.held[relative]

    def inside(self, path: str) -> str | None:
        """`path` (absolute, in the folder) relative to the tree's root; None when it is not in the folder."""
        real = os.path.realpath(path)
        return os.path.relpath(real, self.root) if real.startswith(self.root + os.sep) else None


def _variant_paths(relative: str) -> list[str]:
    """Every path markdown_include_variants (0.0.8, `calculate_variants` and `_folder`) checks for
    the `{* *}` path `relative`: its name and its folder's with each suffix."""
    from markdown_include_variants._main import AN, PY39, PY310, PY311, SUFFIXES_TO_REMOVE, remove_suffixes

    suffixes = [AN + PY311, AN + PY310, AN + PY39, AN, PY311, PY310, PY39, ""]
    folder, name = posixpath.split(relative)
    stem = remove_suffixes(posixpath.splitext(name)[0], SUFFIXES_TO_REMOVE)
    parent, folder_name = posixpath.split(folder)
    folder_stem = remove_suffixes(folder_name, SUFFIXES_TO_REMOVE)
    return [*(posixpath.join(folder, f"{stem}{suffix}.py") for suffix in suffixes),
            *(posixpath.join(parent, f"{folder_stem}{suffix}", name) for suffix in suffixes)]


def tree_includes(module: str, options: dict[str, Any], sandbox: str, ask: Callable[[str], str | None],
                  shared: dict[str, Any]) -> Any:
    """The extension `module` (one of INCLUDE_EXTENSIONS) reading the tree's files (`ask(path)` their
    text, None when absent); `shared`: one renderer's state, its two include extensions' files."""
    files: _TreeFiles = shared.setdefault("files", _TreeFiles(os.path.join(os.path.realpath(sandbox), _FOLDER), ask))
    if module == "markdown_include_variants":
        return _variants_extension(files)
    return _include_extension(files, options)


def _variants_extension(files: _TreeFiles) -> Any:
    from markdown_include_variants._main import IncludeVariantsExtension, IncludeVariantsPreprocessor, re_line

    class TreeIncludeVariants(IncludeVariantsPreprocessor):
        unresolved = property(lambda self: files.unresolved)

        def run(self, lines: list[str]) -> list[str]:
            files.reset()  # the first of the two to run (priority 110, mdx_include's 101)
            shown: list[str] = []
            for line in lines:
                if (match := re.match(re_line, line)) is None:
                    shown.append(line)
                    continue
                relative = _in_tree(match.group(1))
                if relative is None or not [path for path in _variant_paths(relative) if files.fetch(path)]:
                    files.unresolved.append(match.group(1))
                    continue
                try:  # the line, its path in the sandbox: the variants' `{!path!}` are read there too
                    shown.extend(super().run([f"{{* {os.path.join(files.root, relative)} {match.group(2)}*}}"]))
                except (OSError, AssertionError, ValueError):  # no such variant, a bad `ln[…]` or title
                    files.unresolved.append(match.group(1))
            return shown

    class TreeIncludeVariantsExtension(IncludeVariantsExtension):
        def extendMarkdown(self, md: Any) -> None:
            md.preprocessors.register(TreeIncludeVariants(md), "include_variants", 110)

    return TreeIncludeVariantsExtension()


def _include_extension(files: _TreeFiles, options: dict[str, Any]) -> Any:
    import_quietly()
    from mdx_include.mdx_include import IncludeExtension, IncludePreprocessor

    class TreeInclude(IncludePreprocessor):
        unresolved = property(lambda self: files.unresolved)

        def run(self, lines: list[str]) -> list[str]:
            if "include_variants" not in self.md.preprocessors:  # else emptied by it, for this page
                files.reset()
            self.mdx_include_content_cache_clean_local()  # the tree may have changed since the last page
            return list(super().run(lines))

        def get_local_content_list(self, filename: str, encoding: str) -> tuple[list[str], bool]:
            relative = files.inside(filename)
            if relative is None or not files.fetch(relative):
                files.unresolved.append(relative or os.path.relpath(filename, files.root))
                return [], False
            return super().get_local_content_list(filename, encoding)

    class TreeIncludeExtension(IncludeExtension):
        def extendMarkdown(self, md: Any) -> None:
            md.preprocessors.register(TreeInclude(md, self.config, self.compiled_re), "mdx_include", 101)

    base = options.get("base_path", ".")
    return TreeIncludeExtension({**options, "allow_remote": False,
                                 "base_path": os.path.join(files.root, base if isinstance(base, str) else ".")})
