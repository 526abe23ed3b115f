"""MyST's `{literalinclude}` as Sphinx's LiteralIncludeReader reads it (sphinx/directives/code.py,
9.0.4): the file named as for `{include}` (relative to the page's folder, `/x` to the site's), its
lines cut by the filters in Sphinx's order: `pyobject`, `start-at`/`start-after`, `end-at`/
`end-before`, `lines`, `dedent`, `prepend`, `append` (`tab-width` expands tabs first), shown as a
code block under its `caption` (the file's name when the caption is empty). Where Sphinx fails (no
such file, a pattern or object not found, a bad line spec, two options it refuses together) it
shows nothing, with a warning: so does docschat, without one (as for `{include}`). The file is
read from the repository as `{include}`'s are (PageIncludes), within the same bounds.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping

# Option pairs Sphinx refuses together (LiteralIncludeReader.INVALID_OPTIONS_PAIR): nothing shown.
_REFUSED_TOGETHER = (("lineno-match", "lineno-start"), ("lineno-match", "append"), ("lineno-match", "prepend"),
                     ("start-after", "start-at"), ("end-before", "end-at"), ("diff", "pyobject"))


class NotShown(ValueError):
    """What Sphinx reports as a warning, showing nothing of the directive."""


def line_numbers(spec: str, total: int) -> list[int]:
    """sphinx.util._lines.parse_line_num_spec: "1,3,5-7,9-" as 0-based line numbers."""
    items: list[int] = []
    for part in spec.split(","):
        ends = part.strip().split("-")
        try:
            if ends == ["", ""] or len(ends) > 2:
                raise ValueError
            if len(ends) == 1:
                items.append(int(ends[0]) - 1)
                continue
            start = int(ends[0] or 1)
            end = int(ends[1] or max(start, total))
        except ValueError:
            raise NotShown(f"invalid line number spec: {spec!r}") from None
        if start > end:
            raise NotShown(f"invalid line number spec: {spec!r}")
        items.extend(range(start - 1, end))
    return items


def python_objects(text: str) -> dict[str, tuple[int, int]]:
    """Each class, function and method of a Python file, by its dotted name: (first line, last
    line), 1-based, as Sphinx's DefinitionFinder finds them: from the first decorator, to the last
    line of the body that is not blank or a comment; a function inside a function is not one (a
    class inside one is). None parse where Python's parser refuses the file (Sphinx fails too)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        raise NotShown("the file is not Python that parses") from None
    found: dict[str, tuple[int, int]] = {}

    def visit(body: list[ast.stmt], prefix: str, in_function: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + node.name
                function = not isinstance(node, ast.ClassDef)
                if not (in_function and function):
                    # Python's end of the last statement: Sphinx's end too, the line before the next
                    # code at a lesser indent less the blank and comment lines above it.
                    found[name] = (node.decorator_list[0].lineno if node.decorator_list else node.lineno,
                                   node.end_lineno or node.lineno)
                visit(node.body, name + ".", function)
            else:
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    for inner in getattr(node, field, None) or []:
                        visit(inner.body if isinstance(inner, (ast.ExceptHandler, ast.match_case)) else [inner],
                              prefix, False)

    visit(tree.body, "", False)
    return found


def literal_text(text: str, options: Mapping[str, str]) -> str:
    """The part of the file's `text` the directive shows (NotShown: nothing, as Sphinx)."""
    for first, second in _REFUSED_TOGETHER:
        if first in options and second in options:
            raise NotShown(f'Cannot use both "{first}" and "{second}" options')
    if "diff" in options:  # a unified diff headed by the files' absolute paths on the build's machine
        raise NotShown("diff is not read")
    text = text.removeprefix("\ufeff")  # source_encoding utf-8-sig
    if tab_width := options.get("tab-width"):
        try:
            text = text.expandtabs(int(tab_width))
        except ValueError:
            raise NotShown("tab-width is not a number") from None
    lines = text.splitlines(keepends=True)
    if pyobject := options.get("pyobject"):
        objects = python_objects(text)
        if pyobject not in objects:
            raise NotShown(f"Object named {pyobject!r} not found")
        start, end = objects[pyobject]
        lines = lines[start - 1:end]
    lines = _start(lines, options)
    lines = _end(lines, options)
    if spec := options.get("lines"):
        wanted = line_numbers(spec, len(lines))
        lines = [lines[n] for n in wanted if n < len(lines)]
        if not lines:
            raise NotShown(f"Line spec {spec!r}: no lines pulled from include file")
    if "dedent" in options:
        lines = _dedent(lines, options["dedent"])
    if prepend := options.get("prepend"):
        lines.insert(0, prepend + "\n")
    if append := options.get("append"):
        lines.append(append + "\n")
    return "".join(lines)


def _start(lines: list[str], options: Mapping[str, str]) -> list[str]:
    after = "start-after" in options and "start-at" not in options
    mark = options.get("start-at") or (options.get("start-after") if after else None)
    if not mark:
        return lines
    for number, line in enumerate(lines):
        if mark in line:
            return lines[number + 1:] if after else lines[number:]
    raise NotShown(f"start pattern not found: {mark}")


def _end(lines: list[str], options: Mapping[str, str]) -> list[str]:
    at = "end-at" in options
    mark = options.get("end-at") if at else options.get("end-before")
    if not mark:
        return lines
    for number, line in enumerate(lines):
        if mark in line and (at or number):  # end-before never ends at the first line (Sphinx)
            return lines[:number + 1] if at else lines[:number]
    raise NotShown(f"end pattern not found: {mark}")


def _dedent(lines: list[str], dedent: str) -> list[str]:
    """sphinx.directives.code.dedent_lines: `:dedent:` alone, textwrap's; a number, that many
    characters off each line (an emptied line keeps its line break)."""
    if not dedent.strip():
        return textwrap.dedent("".join(lines)).splitlines(keepends=True)
    try:
        width = int(dedent)
    except ValueError:
        raise NotShown("dedent is not a number") from None
    if width < 0:
        raise NotShown("dedent is negative")
    return [line[width:] or ("\n" if line.endswith("\n") else "") for line in lines]
