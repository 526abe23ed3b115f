"""Code chunker: source files → one chunk per top-level symbol, plus a module chunk for the rest.

Each language's symbols are read in app/corpus/code_symbols.py (Python with `ast`; TypeScript, TSX
and JavaScript with tree-sitter). A top-level function or class is one chunk; a
class longer than `max_chars` becomes a header chunk plus one chunk per method. What no symbol
covers (imports, constants, the module docstring) is the module chunk. `package.json` and
`pyproject.toml` give one chunk per package. A file that does not parse falls back to line
windows and is named in the warnings: it never stops a sync.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from app.corpus.chunker import Chunk, bounded_id, content_hash, cut_block, path_unusable
from app.corpus.code_symbols import CodeParseError, Symbol, manifest_symbols, python_symbols, source_lines, ts_symbols
from app.globs import matches_any

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
            symbols = python_symbols(text, max_chars)
        elif language in ("json", "toml"):
            symbols = manifest_symbols(path, text)
        else:
            symbols = ts_symbols(text, language, max_chars)
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
                tokens=max(1, len(body) // 4), section_order=len(result.chunks),
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
