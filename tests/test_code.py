"""Code sources: chunks by symbol with their lines, fallbacks, secret names, identifier search."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.corpus.code import chunk_code_file, compose_code_files, link_href

DATA = Path(__file__).parent / "data" / "code"
LINK = "https://github.com/acme/server/blob/{commit}/{path}#L{start}-L{end}"


def href_for(path: str, start: int, end: int) -> str:
    return link_href(LINK, "abc123", path, start, end)


def spans(path: str, text: str, max_chars: int = 2400) -> dict[str, tuple[str, int, int]]:
    result = chunk_code_file(path, text, href_for=href_for, max_chars=max_chars)
    assert result.warnings == []
    return {c.symbol or c.kind: (c.kind, c.start_line, c.end_line) for c in result.chunks}


def test_python_file_is_chunked_by_top_level_symbol_with_its_lines() -> None:
    text = (DATA / "limits.py").read_text()
    assert spans("app/limits.py", text) == {
        "module": ("module", 1, 5),
        "PostgresLimitsStorage": ("class", 8, 23),  # from its leading comment to its last line
        "hash_ip": ("function", 26, 29),  # the decorator belongs to the function
        "client_ip": ("function", 32, 33),
    }
    chunks = {c.symbol: c for c in chunk_code_file("app/limits.py", text, href_for=href_for).chunks}
    storage = chunks["PostgresLimitsStorage"]
    assert storage.docstring == "Fixed windows in a table."
    assert storage.breadcrumb == "app/limits.py › PostgresLimitsStorage"
    assert storage.page == "app/limits.py" and storage.language == "python"
    assert storage.href == "https://github.com/acme/server/blob/abc123/app/limits.py#L8-L23"
    assert storage.text.splitlines()[0] == "# Storage for the limits library."
    assert chunks["hash_ip"].docstring == ""  # a comment inside the body is not a leading comment
    module = chunks[""]
    assert "WINDOW_SECONDS = 3600" in module.text and "import time" in module.text
    assert "def " not in module.text


def test_a_long_python_class_gives_one_chunk_per_method() -> None:
    text = (DATA / "limits.py").read_text()
    found = spans("app/limits.py", text, max_chars=200)
    assert found["PostgresLimitsStorage"] == ("class", 8, 13)  # the header: comment, docstring, attributes
    assert found["PostgresLimitsStorage.__init__"] == ("method", 14, 15)
    assert found["PostgresLimitsStorage.name"] == ("method", 17, 19)  # with its @property
    assert found["PostgresLimitsStorage.incr"] == ("method", 21, 23)
    chunk = next(c for c in chunk_code_file("app/limits.py", text, href_for=href_for, max_chars=200).chunks
                 if c.symbol == "PostgresLimitsStorage.incr")
    assert chunk.breadcrumb == "app/limits.py › PostgresLimitsStorage.incr"
    assert chunk.docstring == "Add one hit to the window of key."
    assert chunk.href.endswith("#L21-L23")


def test_tsx_file_is_chunked_by_symbol_with_its_lines() -> None:
    text = (DATA / "widget.tsx").read_text()
    assert spans("web/widget.tsx", text) == {
        "module": ("module", 1, 28),  # imports, the constant and the default export
        "ChatPanel": ("function", 5, 8),
        "ChatClient": ("class", 10, 17),
        "ChatMessage": ("interface", 19, 22),
        "streamParts": ("function", 24, 26),
    }
    chunks = {c.symbol: c for c in chunk_code_file("web/widget.tsx", text, href_for=href_for).chunks}
    assert chunks["ChatPanel"].docstring == "The chat panel."
    assert chunks["ChatPanel"].language == "tsx"
    assert chunks["ChatClient"].docstring == "Talks to the chat endpoint."
    module = chunks[""].text
    assert 'import React from "react";' in module and "export default ChatPanel;" in module
    assert "fetch(" not in module


def test_a_long_tsx_class_gives_one_chunk_per_method() -> None:
    text = (DATA / "widget.tsx").read_text()
    found = spans("web/widget.tsx", text, max_chars=150)
    assert found["ChatClient.constructor"] == ("method", 12, 12)
    assert found["ChatClient.send"] == ("method", 14, 16)


def test_manifests_give_one_chunk_per_package() -> None:
    package = '{"name": "@acme/widget", "description": "The chat widget", "scripts": {"build": "vite build"},\n' \
              ' "dependencies": {"react": "^19.0.0"}}\n'
    pyproject = '[project]\nname = "acme-server"\ndescription = "The API"\ndependencies = ["litestar>=2"]\n' \
                '[project.scripts]\nacme = "acme.cli:main"\n'
    result = compose_code_files({"web/package.json": package, "pyproject.toml": pyproject}, href_for=href_for)
    assert [(c.page, c.kind, c.symbol, c.start_line, c.end_line) for c in result.chunks] == [
        ("pyproject.toml", "package", "acme-server", 1, 6),
        ("web/package.json", "package", "@acme/widget", 1, 2),
    ]
    widget = result.chunks[1].text
    assert "The chat widget" in widget and "build: vite build" in widget and "react: ^19.0.0" in widget
    assert "litestar>=2" in result.chunks[0].text and "acme: acme.cli:main" in result.chunks[0].text


@pytest.mark.parametrize(
    ("path", "text", "language"),
    [
        ("app/broken.py", "def ok():\n    return 1\n\ndef broken(:\n    pass\n", "python"),
        ("web/broken.tsx", "export function ok() { return 1 }\n\nexport function broken( {\n", "tsx"),
        ("web/package.json", '{"name": "x",\n', "json"),
    ],
)
def test_an_unparsable_file_falls_back_to_line_windows_and_warns(path: str, text: str, language: str) -> None:
    result = compose_code_files({path: text, "app/fine.py": "def fine():\n    return 2\n"}, href_for=href_for)
    assert len(result.warnings) == 1 and result.warnings[0].startswith(f"{path}: does not parse as {language}")
    broken = [c for c in result.chunks if c.page == path]
    assert [c.kind for c in broken] == ["lines"]
    assert (broken[0].start_line, broken[0].end_line) == (1, len(text.splitlines()))
    assert broken[0].text == text.rstrip("\n")
    assert [c.symbol for c in result.chunks if c.page == "app/fine.py"] == ["fine"]  # the rest still indexed


@pytest.mark.parametrize("expression", ["-" * 200_000 + "1", "+".join(["1"] * 100_000)])
def test_python_nested_past_its_parser_falls_back_to_line_windows(expression: str) -> None:
    """ast.parse raises MemoryError or RecursionError on such a file: it stopped the whole compose."""
    path = "app/generated.py"
    result = compose_code_files({path: f"x = {expression}\n", "app/fine.py": "def fine():\n    return 2\n"},
                                href_for=href_for)
    assert len(result.warnings) == 1 and result.warnings[0].startswith(f"{path}: does not parse as python")
    assert {c.kind for c in result.chunks if c.page == path} == {"lines"}
    assert [c.symbol for c in result.chunks if c.page == "app/fine.py"] == ["fine"]


def test_secret_looking_files_tests_and_build_output_are_never_indexed() -> None:
    files = {
        "app/main.py": "def main():\n    pass\n",
        ".env": "API_KEY=x\n", "config/.env.production": "x\n", "deploy/server.pem": "x\n",
        "deploy/server.key": "x\n", "home/id_rsa": "x\n", "home/id_rsa.pub": "x\n",
        "tests/test_main.py": "def test_x():\n    pass\n", "app/main.test.ts": "export function t() {}\n",
        "node_modules/react/index.js": "export function r() {}\n", "dist/app.js": "export function d() {}\n",
        "package-lock.json": "{}\n", "vendor/lib.py": "def v():\n    pass\n",
    }
    # Even a source that includes everything never gets the secret-looking names.
    everything = compose_code_files({**files, "keys/api.key.py": "KEY = 1\n", ".env.py": "KEY = 1\n"},
                                    href_for=href_for, include=["**"], exclude=[])
    indexed = {c.page for c in everything.chunks}
    assert not indexed & {".env", "config/.env.production", "deploy/server.pem", "deploy/server.key",
                          "home/id_rsa", "home/id_rsa.pub", ".env.py"}
    default = compose_code_files(files, href_for=href_for)
    assert default.files == ["app/main.py"]


def test_the_source_folder_prefixes_paths_and_links() -> None:
    result = compose_code_files({"chat/limits.py": (DATA / "limits.py").read_text()}, href_for=href_for,
                                path_prefix="app")
    chunk = next(c for c in result.chunks if c.symbol == "client_ip")
    assert chunk.page == "app/chat/limits.py" and chunk.id == "code:app/chat/limits.py#client_ip"
    assert chunk.href == "https://github.com/acme/server/blob/abc123/app/chat/limits.py#L32-L33"


def test_a_minified_line_is_indexed_in_pieces_and_whole() -> None:
    """One 40,000-character line (minified JavaScript, a data literal) was one chunk of any size."""
    from app.corpus.chunker import MAX_BLOCK_CHARS

    line = "var data = [" + ",".join(str(n) for n in range(7_000)) + "];"
    chunks = chunk_code_file("static/app.min.js", line, href_for=href_for).chunks
    assert len(chunks) > 1 and all(len(c.text) <= MAX_BLOCK_CHARS for c in chunks)
    assert "".join(c.text for c in chunks) == line and len({c.id for c in chunks}) == len(chunks)



@pytest.mark.parametrize("path,newline,odd", [
    ("gnu.py", "\n", "\x0c"),  # a form feed between functions, as GNU style has
    ("app.js", "\n", "\u2028"),  # a line separator inside a string
    ("old.js", "\r", " "),  # lone CR line ends (and nothing odd inside)
])
def test_line_numbers_are_the_parsers_whatever_the_line_ends(path: str, newline: str, odd: str) -> None:
    """str.splitlines also splits at form feeds, U+2028 and lone CRs where the parsers do not (or
    do): every chunk after one held another symbol's lines."""
    if path.endswith(".py"):
        lines = ["def first():", "    return 'first body'", odd, "def second():", "    return 'second body'"]
    else:
        lines = ["function first() {", f"  return 'first{odd}body';", "}", "function second() {",
                 "  return 'second body';", "}"]
    chunks = {c.symbol: c for c in chunk_code_file(path, newline.join(lines) + newline, href_for=href_for).chunks}
    assert "first body" in chunks["first"].text.replace(odd, " ") and "second" not in chunks["first"].text
    assert "second body" in chunks["second"].text and chunks["second"].start_line == len(lines) - (
        1 if path.endswith(".py") else 2)


def test_a_hostile_file_is_skipped_with_a_warning_and_the_others_indexed() -> None:
    """Each of these raised out of compose and failed the sync of every source, docs included."""
    files = {
        "good.py": "def fine():\n    return 1\n",
        "a/pyproject.toml": 'project = "oops"\n',
        "b/pyproject.toml": "[tool]\npoetry = 3\n",
        "c/package.json": '{"name": "x", "version": ' + "9" * 5000 + "}",
        "d/package.json": '{"name": "x", "description": "a\\ud800b\\u0000c"}',
        "late_nul.py": "x = 1\n" * 2000 + "y = '\x00'\n",
        "bom.py": "\ufeffdef with_bom():\n    return 1\n",  # parsed, not windows: Python refuses U+FEFF
    }
    result = compose_code_files(files, href_for=href_for)
    assert "good.py" in result.files and "late_nul.py" in result.files
    assert all("\x00" not in c.text and "\x00" not in c.embed_text for c in result.chunks)
    described = next(c for c in result.chunks if c.page == "d/package.json")
    assert described.text.encode("utf-8") and "\x00" not in described.docstring
    assert any("c/package.json" in w for w in result.warnings)
    assert "with_bom" in {c.symbol for c in result.chunks} and not any("bom.py" in w for w in result.warnings)

# --- identifiers searchable by their words (sql/functions/docs_identifier_words.sql) ------------------------------------

from app.search.legs import search_docs_sections  # noqa: E402

INSERT = """
insert into docs_section (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash)
values ($1, 'docs', $2, $3, $4, $3, $5, $6, '{public}', 'h')
"""


async def add_section(conn, id_: str, content: str, *, title: str = "Page", heading: str = "") -> None:
    await conn.execute(INSERT, id_, id_.split("#")[0], title, heading, "/docs/" + id_, content)


IDENTIFIER_CORPUS = {
    "camel.py#PostgresLimitsStorage": ("camel.py", "PostgresLimitsStorage", "class PostgresLimitsStorage:\n    pass"),
    "snake.py#postgres_limits_storage": ("snake.py", "postgres_limits_storage", "def postgres_limits_storage():\n    pass"),
    "dotted.md#usage": ("Usage", "Usage", "Call `limits.storage` with the pool, then postgres answers."),
}


async def _identifier_corpus(conn) -> None:
    for id_, (title, heading, content) in IDENTIFIER_CORPUS.items():
        await add_section(conn, id_, content, title=title, heading=heading)
    for i in range(6):  # other sections, so that the terms are rare
        await add_section(conn, f"other{i}.md#s", f"Unrelated section number {i} about widgets and themes.")
    await conn.fetchval("select refresh_docs_search_stats()")


async def test_identifier_words_are_in_the_stored_vector(conn) -> None:
    assert await conn.fetchval("select public.docs_identifier_words('PostgresLimitsStorage')") == (
        "PostgresLimitsStorage Postgres Limits Storage postgreslimitsstorage"
    )
    await _identifier_corpus(conn)
    vector = await conn.fetchval("select search_vector::text from docs_section where id = 'camel.py#PostgresLimitsStorage'")
    for lexeme in ("'postgr'", "'limit'", "'storag'", "'postgreslimitsstorag'"):
        assert lexeme in vector


async def test_words_find_every_spelling_of_an_identifier(conn) -> None:
    await _identifier_corpus(conn)
    hits = await search_docs_sections(conn, "postgres limits storage", 10, None)
    assert set(IDENTIFIER_CORPUS) <= {h.id for h in hits}
    assert {h.id for h in hits[:3]} == set(IDENTIFIER_CORPUS)


@pytest.mark.parametrize("question", ["PostgresLimitsStorage", "where is postgres_limits_storage?"])
async def test_the_exact_identifier_finds_it_and_its_other_spellings(conn, question: str) -> None:
    await _identifier_corpus(conn)
    hits = await search_docs_sections(conn, question, 10, None)
    ids = [h.id for h in hits]
    assert {"camel.py#PostgresLimitsStorage", "snake.py#postgres_limits_storage"} <= set(ids[:2])
    assert "dotted.md#usage" in ids  # shares the words, ranks below the exact spellings


async def test_a_dotted_name_in_prose_is_found_by_its_words(conn) -> None:
    await _identifier_corpus(conn)
    hits = await search_docs_sections(conn, "limits storage", 10, None)
    assert "dotted.md#usage" in [h.id for h in hits]
