"""Code chunker: source files → one chunk per top-level symbol, plus a module chunk for the rest.

Python is parsed with `ast`; TypeScript, TSX and JavaScript with tree-sitter (grammars come in the
PyPI wheels, nothing is downloaded at run time). A top-level function or class is one chunk; a
class longer than `max_chars` becomes a header chunk plus one chunk per method. What no symbol
covers (imports, constants, the module docstring) is the module chunk. `package.json` and
`pyproject.toml` give one chunk per package. A file that does not parse falls back to line
windows and is named in the warnings: it never stops a sync.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.corpus.chunker import Chunk, bounded_id, content_hash, cut_block, path_unusable
from app.globs import matches_any
from app.text import storable_text

# Paths (relative to the source folder) indexed unless a source says otherwise.
DEFAULT_CODE_INCLUDE = [
    "**/*.py", "**/*.ts", "**/*.tsx", "**/*.js", "**/*.jsx", "**/*.mjs", "**/*.cjs",
    "**/package.json", "**/pyproject.toml",
]
DEFAULT_CODE_EXCLUDE = [
    # tests
    "**/test/**", "**/tests/**", "**/__tests__/**", "**/__mocks__/**", "**/e2e/**", "**/fixtures/**",
    "**/*.test.*", "**/*.spec.*", "**/test_*.py", "**/*_test.py", "**/conftest.py",
    # build output, caches, vendored and generated code
    "**/node_modules/**", "**/dist/**", "**/build/**", "**/out/**", "**/.next/**", "**/coverage/**",
    "**/.venv/**", "**/venv/**", "**/site-packages/**", "**/__pycache__/**", "**/.git/**",
    "**/vendor/**", "**/vendored/**", "**/third_party/**", "**/generated/**", "**/__generated__/**",
    "**/*.generated.*", "**/*_pb2.py", "**/*_pb2_grpc.py", "**/*.min.js", "**/*.d.ts", "**/*.bundle.js",
    # lockfiles
    "**/package-lock.json", "**/yarn.lock", "**/pnpm-lock.yaml", "**/poetry.lock", "**/uv.lock",
    "**/Pipfile.lock", "**/bun.lockb", "**/npm-shrinkwrap.json",
]
# Never indexed, whatever a source includes: file names that usually hold credentials.
SECRET_NAME_PATTERNS = [
    "**/.env", "**/.env.*", "**/*.env", "**/*.pem", "**/*.key", "**/id_rsa*", "**/id_dsa*", "**/id_ecdsa*",
    "**/id_ed25519*", "**/*.p12", "**/*.pfx", "**/*.keystore", "**/*.jks", "**/.netrc", "**/.npmrc",
    "**/.pypirc", "**/credentials.json", "**/service-account*.json",
]
MAX_FILE_BYTES = 300_000  # larger source files are nearly always generated or minified
WINDOW_LINES = 60  # line windows of a file that does not parse
BREADCRUMB_SEPARATOR = " › "

LANGUAGES = {
    ".py": "python", ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
}
MANIFESTS = {"package.json": "json", "pyproject.toml": "toml"}


@dataclass(frozen=True)
class CodeChunk(Chunk):
    """A docs Chunk plus where in which file it is: `page` is the file, `heading` the symbol path."""

    language: str = ""
    symbol: str = ""  # Class.method; '' for the module chunk
    kind: str = ""  # module, function, class, method, interface, type, enum, package, lines
    start_line: int = 0  # 1-based, inclusive
    end_line: int = 0
    docstring: str = ""  # the docstring or leading comment
    tokens: int = 0  # rough size for budgets: characters / 4


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


HrefFor = Callable[[str, int, int], str]


@dataclass
class CodeFileResult:
    chunks: list[CodeChunk] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def language_of(path: str) -> str | None:
    name = path.rsplit("/", 1)[-1]
    if name in MANIFESTS:
        return MANIFESTS[name]
    suffix = "." + name.rsplit(".", 1)[-1] if "." in name else ""
    return LANGUAGES.get(suffix)


def link_href(template: str, commit: str, path: str, start: int, end: int) -> str:
    """Fill `{commit}`, `{path}`, `{start}`, `{end}` of a link template (other braces stay as they are)."""
    return (
        template.replace("{commit}", commit).replace("{path}", path)
        .replace("{start}", str(start)).replace("{end}", str(end))
    )


_LINE_ANCHOR = re.compile(r"#L(\d+)-L(\d+)$")


def fenced_code_excerpt(path: str, href: str, text: str) -> str | None:
    """A code chunk as the model sees it: path and lines, then the code fenced with its language.
    None when `path`/`href` are not a code chunk's (a docs page)."""
    language = language_of(path)
    lines = _LINE_ANCHOR.search(href)
    if language is None or lines is None:
        return None
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    # The header ends with ":" so the extractive answerer brings the code along with it.
    return f"{path} lines {lines.group(1)}-{lines.group(2)}:\n{fence}{language}\n{text}\n{fence}"


# --- helpers -----------------------------------------------------------------------------------


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


def _module_parts(lines: list[str], covered: set[int], max_chars: int) -> list[tuple[str, int, int]]:
    """The lines no symbol covers, gaps marked with `...`, in parts of at most max_chars: each
    part's text with its first and last line."""
    parts: list[tuple[str, int, int]] = []
    kept: list[str] = []
    first = last = size = 0
    gap = False
    for number, line in enumerate(lines, start=1):
        if number in covered:
            gap = bool(kept)
            continue
        if not line.strip():
            if kept and kept[-1] != "":
                kept.append("")
            continue
        if kept and size + len(line) + 1 > max_chars:
            parts.append(("\n".join(kept).strip("\n"), first, last))
            kept, first, size, gap = [], 0, 0, False
        if gap and kept:
            kept.append("...")
        gap = False
        kept.append(line)
        size += len(line) + 1
        first = first or number
        last = number
    if kept:
        parts.append(("\n".join(kept).strip("\n"), first, last))
    return parts


# --- Python ------------------------------------------------------------------------------------


def source_lines(text: str) -> list[str]:
    """The lines as the parsers and GitHub's #L anchors count them: split at LF, CRLF and a lone CR
    only (str.splitlines also splits at form feeds and U+2028, which a parser does not; every line
    number after one would point at the wrong code)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _python_symbols(text: str, max_chars: int) -> list[Symbol]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        raise CodeParseError(f"line {line}: {getattr(exc, 'msg', exc)}" if line else str(exc)) from None
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


def _ts_symbols(text: str, language: str, max_chars: int) -> list[Symbol]:
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


def _manifest_symbols(path: str, text: str) -> list[Symbol]:
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


# --- one file ----------------------------------------------------------------------------------


def _windows(lines: list[str], max_chars: int) -> list[Symbol]:
    windows: list[Symbol] = []
    start = 1
    while start <= len(lines):
        end = start
        size = len(lines[start - 1])
        while end < len(lines) and end - start + 1 < WINDOW_LINES and size + len(lines[end]) + 1 <= max_chars:
            size += len(lines[end]) + 1
            end += 1
        windows.append(Symbol(f"lines {start}-{end}", "lines", start, end))
        start = end + 1
    return windows


def _split_long(symbol: Symbol, lines: list[str], max_chars: int) -> list[Symbol]:
    """A symbol longer than max_chars: consecutive line ranges of it, each at most max_chars."""
    text = symbol.text if symbol.text is not None else "\n".join(lines[symbol.start - 1 : symbol.end])
    if len(text) <= max_chars or symbol.text is not None:
        return [symbol]
    parts = [Symbol(symbol.symbol, symbol.kind, w.start, w.end, symbol.docstring)
             for w in _windows(lines[symbol.start - 1 : symbol.end], max_chars)]
    offset = symbol.start - 1
    return [Symbol(p.symbol, p.kind, p.start + offset, p.end + offset, p.docstring) for p in parts]


def chunk_code_file(
    path: str, text: str, *, href_for: HrefFor, max_chars: int = 2400, source: str = "code",
    audiences: tuple[str, ...] = ("developer",),
) -> CodeFileResult:
    """Chunks of one file (`path` as shown and linked, relative to the repository root); ids are
    `<source>:<path>#<symbol>` like the docs' `<source>:<page>#<anchor>`."""
    result = CodeFileResult()
    language = language_of(path)
    if language is None:
        return result
    if "\x00" in text[:8000]:
        result.warnings.append(f"{path}: binary content; file skipped")
        return result
    # One kind of line end, as the parsers count lines; a NUL further on is dropped (Postgres stores
    # none), and so is a byte order mark (Python's parser refuses U+FEFF).
    text = "\n".join(source_lines(text.replace("\x00", "").removeprefix("\ufeff")))
    lines = source_lines(text)
    if not any(line.strip() for line in lines):
        return result
    symbols: list[Symbol]
    try:
        if language == "python":
            symbols = _python_symbols(text, max_chars)
        elif language in ("json", "toml"):
            symbols = _manifest_symbols(path, text)
        else:
            symbols = _ts_symbols(text, language, max_chars)
        covered = {n for s in symbols for n in range(s.start, max(s.end, s.covers_end) + 1)}
        if language not in ("json", "toml"):
            module_doc = (ast.get_docstring(ast.parse(text)) or "") if language == "python" else ""
            modules = [
                Symbol("", "module", first, last, module_doc.strip(), part)
                for part, first, last in _module_parts(lines, covered, max_chars)
            ]
            symbols[:0] = modules
    except CodeParseError as exc:
        result.warnings.append(f"{path}: does not parse as {language} ({exc}); indexed as line windows")
        symbols = _windows(lines, max_chars)
    except RecursionError:
        result.warnings.append(f"{path}: nested too deeply to parse; indexed as line windows")
        symbols = _windows(lines, max_chars)

    seen: dict[str, int] = {}
    for symbol, body in (
        (part, piece) for s in symbols for part in _split_long(s, lines, max_chars)
        # A minified line or a huge manifest is no symbol's worth of text: it is indexed in pieces
        # (chunker.MAX_BLOCK_CHARS) rather than fail its whole source in Postgres.
        for piece in cut_block(part.text if part.text is not None else "\n".join(lines[part.start - 1 : part.end]))
    ):
        name = symbol.symbol if symbol.kind not in ("module", "lines") else ""
        anchor = name or (f"L{symbol.start}-L{symbol.end}" if symbol.kind == "lines" else "")
        base_id = f"{source}:{path}#{anchor}" if anchor else f"{source}:{path}"
        seen[base_id] = seen.get(base_id, 0) + 1
        chunk_id = bounded_id(base_id if seen[base_id] == 1 else f"{base_id}~{seen[base_id]}")
        heading = name or ("" if symbol.kind == "module" else symbol.symbol)
        breadcrumb = BREADCRUMB_SEPARATOR.join([path, heading]) if heading else path
        kind_label = f"{symbol.kind} {name}" if name else symbol.kind
        embed_text = f"{breadcrumb}\n{language} {kind_label}\n\n{body}"
        result.chunks.append(
            CodeChunk(
                id=chunk_id, source=source, page=path, title=path, heading=heading, breadcrumb=breadcrumb,
                href=href_for(path, symbol.start, symbol.end), audiences=audiences, text=body, embed_text=embed_text,
                content_hash=content_hash(embed_text), language=language, symbol=name, kind=symbol.kind,
                start_line=symbol.start, end_line=symbol.end, docstring=symbol.docstring[:500],
                tokens=max(1, len(body) // 4),
            )
        )
    return result


# --- a tree of files ---------------------------------------------------------------------------


@dataclass
class CodeComposeResult:
    files: list[str] = field(default_factory=list)  # the indexed files: the pages of a code source
    chunks: list[CodeChunk] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def is_secret_looking(path: str) -> bool:
    return matches_any(path, SECRET_NAME_PATTERNS)


def code_file_selected(path: str, include: list[str] | tuple[str, ...], exclude: list[str] | tuple[str, ...]) -> bool:
    """Included, not excluded, of a language we chunk, and never a secret-looking name."""
    return (
        language_of(path) is not None
        and matches_any(path, include)
        and not matches_any(path, exclude)
        and not is_secret_looking(path)
    )


def compose_code_files(
    files: Mapping[str, str],
    *,
    href_for: HrefFor,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    path_prefix: str = "",
    max_chars: int = 2400,
    source: str = "code",
    audiences: tuple[str, ...] = ("developer",),
) -> CodeComposeResult:
    """Chunk a tree {path relative to the source folder: text}. Paths shown and linked are
    `path_prefix` + that path (the path inside the repository)."""
    include = DEFAULT_CODE_INCLUDE if include is None else include
    exclude = DEFAULT_CODE_EXCLUDE if exclude is None else exclude
    result = CodeComposeResult()
    prefix = path_prefix.strip("/") + "/" if path_prefix.strip("/") else ""
    for relative in sorted(files):
        if not code_file_selected(relative, include, exclude):
            continue
        path = prefix + relative
        text = files[relative]
        if (unusable := path_unusable(path)) is not None:
            result.warnings.append(unusable)
            continue
        if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
            result.warnings.append(f"{path}: larger than {MAX_FILE_BYTES} bytes (generated or minified?); file skipped")
            continue
        try:
            chunked = chunk_code_file(
                path, text, href_for=href_for, max_chars=max_chars, source=source, audiences=audiences
            )
        except Exception as exc:  # noqa: BLE001 - one hostile file must not stop the sync
            result.warnings.append(f"{path}: cannot be composed ({type(exc).__name__}: {str(exc)[:200]}); file skipped")
            continue
        result.warnings.extend(chunked.warnings)
        if chunked.chunks:
            result.files.append(path)
            result.chunks.extend(chunked.chunks)
    return result
