"""What symbols a source file holds, per language: Python through `ast`; TypeScript, TSX and
JavaScript through tree-sitter (the grammars come in the PyPI wheels); `package.json` and
`pyproject.toml` as one package each. Each reader gives spans of the file (`Symbol`) and raises
CodeParseError for a file that does not parse; app/corpus/code.py turns spans into chunks."""

from __future__ import annotations

import ast
import functools
import json
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from app.text import storable_text


@dataclass(frozen=True)
class Symbol:
    """A span of a file before it becomes a chunk."""

    symbol: str
    kind: str
    start: int  # 1-based, inclusive
    end: int
    docstring: str = ""
    text: str | None = None  # None: the file's lines start..end
    covers_end: int = 0  # a split class's header covers its whole class (attributes between methods)


class CodeParseError(Exception):
    """The file is not valid source for its language."""


# --- shared ------------------------------------------------------------------------------------


def _leading_comment(lines: list[str], start: int, markers: tuple[str, ...]) -> int:
    """The first line of the comment block directly above line `start` (1-based), or `start`."""
    first = start
    while first > 1 and lines[first - 2].strip().startswith(markers):
        first -= 1
    return first


def _comment_text(lines: list[str], start: int, end: int) -> str:
    text = "\n".join(lines[start - 1 : end])
    text = re.sub(r"^\s*(?:#+|//+|/\*+|\*+/?|\*/)\s?", "", text, flags=re.MULTILINE)
    return text.replace("*/", "").strip()


def source_lines(text: str) -> list[str]:
    """The lines as the parsers and GitHub's #L anchors count them: split at LF, CRLF and a lone CR
    only (str.splitlines also splits at form feeds and U+2028, which a parser does not; every line
    number after one would point at the wrong code)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --- Python ------------------------------------------------------------------------------------


def python_symbols(text: str, max_chars: int) -> list[Symbol]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise CodeParseError(f"line {line}: {getattr(exc, 'msg', exc)}" if line else str(exc)) from None
    except (MemoryError, RecursionError):  # `x = ----…1` or `1+1+…` 200,000 long: hostile or generated
        raise CodeParseError("nested deeper than Python's parser builds") from None
    lines = source_lines(text)
    symbols: list[Symbol] = []

    def first_line(node: ast.AST) -> int:
        """The line of the first decorator, or of `def`/`class`."""
        return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]

    def span(node: ast.AST) -> tuple[int, int]:
        start = first_line(node)
        return _leading_comment(lines, start, ("#",)), node.end_lineno or start  # type: ignore[attr-defined]

    def doc(node: ast.AST, start: int) -> str:
        """The docstring, else the comment block right above the decorators."""
        docstring = ast.get_docstring(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else None
        return (docstring or _comment_text(lines, start, first_line(node) - 1)).strip()

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start, end = span(node)
            symbols.append(Symbol(node.name, "function", start, end, doc(node, start)))
        elif isinstance(node, ast.ClassDef):
            start, end = span(node)
            class_doc = doc(node, start)
            class_text = "\n".join(lines[start - 1 : end])
            methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if len(class_text) <= max_chars or not methods:
                symbols.append(Symbol(node.name, "class", start, end, class_doc))
                continue
            method_spans = [(m, *span(m)) for m in methods]
            covered = {n for _, s, e in method_spans for n in range(s, e + 1)}
            header_lines = [
                line for number, line in enumerate(lines[start - 1 : end], start=start)
                if number not in covered and line.strip()
            ]
            header_end = method_spans[0][1] - 1
            symbols.append(
                Symbol(node.name, "class", start, max(header_end, start), class_doc, "\n".join(header_lines), end)
            )
            for method, m_start, m_end in method_spans:
                symbols.append(
                    Symbol(f"{node.name}.{method.name}", "method", m_start, m_end, doc(method, m_start))
                )
    return symbols


# --- TypeScript / JavaScript (tree-sitter) -----------------------------------------------------


@functools.lru_cache(maxsize=4)
def _ts_parser(language: str):
    import tree_sitter

    if language == "javascript":
        import tree_sitter_javascript

        grammar = tree_sitter_javascript.language()
    else:
        import tree_sitter_typescript

        grammar = tree_sitter_typescript.language_tsx() if language == "tsx" else tree_sitter_typescript.language_typescript()
    return tree_sitter.Parser(tree_sitter.Language(grammar))


_TS_FUNCTIONS = {"function_declaration", "generator_function_declaration", "function_signature"}
_TS_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_TS_TYPES = {"interface_declaration": "interface", "type_alias_declaration": "type", "enum_declaration": "enum",
             "internal_module": "namespace", "module": "namespace"}
_TS_FUNCTION_VALUES = {"arrow_function", "function_expression", "function", "generator_function"}
_TS_MEMBERS = {"method_definition", "public_field_definition", "abstract_method_signature", "method_signature",
               "field_definition"}
_MIN_TYPE_LINES = 3  # shorter type aliases and interfaces stay in the module chunk


def _node_name(node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None else ""


def ts_symbols(text: str, language: str, max_chars: int) -> list[Symbol]:
    source = text.encode("utf-8")
    tree = _ts_parser(language).parse(source)
    root = tree.root_node
    if root.has_error:
        bad = _first_error(root)
        raise CodeParseError(f"line {bad + 1}: syntax error" if bad is not None else "syntax error")
    lines = source_lines(text)
    symbols: list[Symbol] = []

    def leading(node) -> tuple[int, str]:
        """The node's first line including the comments right above it, and those comments."""
        start = node.start_point[0] + 1
        comment_start = start
        sibling = node.prev_sibling
        while sibling is not None and sibling.type == "comment" and sibling.end_point[0] + 1 >= comment_start - 1:
            comment_start = sibling.start_point[0] + 1
            sibling = sibling.prev_sibling
        return comment_start, _comment_text(lines, comment_start, start - 1) if comment_start < start else ""

    for statement in root.named_children:
        outer = statement
        node = statement
        if node.type == "export_statement":
            declaration = node.child_by_field_name("declaration") or next(
                (c for c in node.named_children if c.type in _TS_CLASSES | _TS_FUNCTIONS | _TS_FUNCTION_VALUES), None
            )
            if declaration is None:
                continue  # `export { a, b }`: module chunk
            node = declaration
        start, comment = leading(outer)
        end = outer.end_point[0] + 1
        if node.type in _TS_FUNCTIONS or node.type in _TS_FUNCTION_VALUES:
            symbols.append(Symbol(_node_name(node) or "default", "function", start, end, comment))
        elif node.type in _TS_CLASSES:
            name = _node_name(node) or "default"
            body = node.child_by_field_name("body")
            members = [c for c in body.named_children if c.type in _TS_MEMBERS] if body is not None else []
            methods = [m for m in members if m.type != "public_field_definition" and m.type != "field_definition"]
            class_text = "\n".join(lines[start - 1 : end])
            if len(class_text) <= max_chars or not methods:
                symbols.append(Symbol(name, "class", start, end, comment))
                continue
            spans = []
            for method in methods:
                m_start, m_comment = leading(method)
                spans.append((method, m_start, method.end_point[0] + 1, m_comment))
            covered = {n for _, s, e, _ in spans for n in range(s, e + 1)}
            header = [line for n, line in enumerate(lines[start - 1 : end], start=start) if n not in covered and line.strip()]
            symbols.append(Symbol(name, "class", start, max(spans[0][1] - 1, start), comment, "\n".join(header), end))
            for method, m_start, m_end, m_comment in spans:
                symbols.append(Symbol(f"{name}.{_node_name(method)}", "method", m_start, m_end, m_comment))
        elif node.type in _TS_TYPES:
            if end - start + 1 >= _MIN_TYPE_LINES:
                symbols.append(Symbol(_node_name(node), _TS_TYPES[node.type], start, end, comment))
        elif node.type in ("lexical_declaration", "variable_declaration"):
            declarators = [c for c in node.named_children if c.type == "variable_declarator"]
            if len(declarators) != 1:
                continue
            value = declarators[0].child_by_field_name("value")
            if value is None:
                continue
            if value.type in _TS_FUNCTION_VALUES:
                symbols.append(Symbol(_node_name(declarators[0]), "function", start, end, comment))
            elif value.type in _TS_CLASSES:
                symbols.append(Symbol(_node_name(declarators[0]), "class", start, end, comment))
            elif end - start + 1 >= 8:  # a large object or call (a router, a config): worth its own chunk
                symbols.append(Symbol(_node_name(declarators[0]), "constant", start, end, comment))
    return symbols


def _first_error(node) -> int | None:
    if node.type == "ERROR" or node.is_missing:
        return node.start_point[0]
    for child in node.children:
        if child.has_error:
            found = _first_error(child)
            if found is not None:
                return found
    return None


# --- manifests ---------------------------------------------------------------------------------


def _lines_of(mapping: object, indent: str = "  ") -> list[str]:
    if isinstance(mapping, dict):
        return [f"{indent}{k}: {v if not isinstance(v, (dict, list)) else json.dumps(v)}" for k, v in mapping.items()]
    if isinstance(mapping, list):
        return [f"{indent}{item}" for item in mapping]
    return []


def manifest_symbols(path: str, text: str) -> list[Symbol]:
    name = path.rsplit("/", 1)[-1]
    total = max(len(source_lines(text)), 1)
    if name == "package.json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CodeParseError(f"line {exc.lineno}: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, nesting too deep
            raise CodeParseError(f"{type(exc).__name__}: {str(exc)[:120]}") from None
        if not isinstance(data, dict):
            raise CodeParseError("not a JSON object")
        package, description = str(data.get("name") or path), str(data.get("description") or "")
        sections = {k: data.get(k) for k in ("scripts", "bin", "exports", "workspaces", "dependencies",
                                             "devDependencies", "peerDependencies")}
    else:
        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError; so is a huge int
            raise CodeParseError(f"{type(exc).__name__}: {str(exc)[:120]}") from None
        tool: dict[str, Any] = data["tool"] if isinstance(data.get("tool"), dict) else {}
        project = next((t for t in (data.get("project"), tool.get("poetry")) if isinstance(t, dict) and t), {})
        package, description = str(project.get("name") or path), str(project.get("description") or "")
        sections = {
            "scripts": project.get("scripts"),
            "dependencies": project.get("dependencies"),
            "optional-dependencies": project.get("optional-dependencies"),
            "dev-dependencies": project.get("dev-dependencies") or project.get("group"),
        }
    out = [f"package {package}"] + ([description] if description else [])
    for section, value in sections.items():
        if value:
            out.append(f"{section}:")
            out.extend(_lines_of(value))
    # JSON escapes can spell a NUL or a lone surrogate ("\\ud800"), which no database stores.
    package, description, body = (storable_text(t, nul="") for t in (package, description, "\n".join(out)))
    return [Symbol(package, "package", 1, total, description, body)]
