"""The page-level skip for code sources (design/page-keys.md): each indexed file
is a page keyed on the compose fingerprint and its own blob id (never the commit: a link naming it
is filled when read); a file whose key is unchanged is not read or chunked. Files chunked are counted
through code.chunk_code_file and files read through GitTree.__getitem__ (the real functions,
wrapped); the database is the real one."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

import app.corpus.code as code_module
import app.indexing.sync as sync_module
import app.indexing.sync_apply as sync_apply
from app.config import Settings, get_settings
from app.corpus.code_source import code_tree
from app.corpus.git_source import GitTree
from app.corpus.sources import Source, SourcesConfig
from app.indexing.clear import clear_index
from app.indexing.sync import sync_sources
from tests.helpers import commit_all, git, make_docs_repo, write_files

GITHUB = "https://github.com/acme/server/blob/{commit}/{path}#L{start}-L{end}"


@pytest.fixture
def keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()


class Counted:
    def __init__(self) -> None:
        self.chunked: list[str] = []
        self.read: list[str] = []

    def clear(self) -> None:
        self.chunked.clear()
        self.read.clear()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    """The files chunked and the files read from git (the real functions, counted), in small batches."""
    seen = Counted()
    real_chunk, real_read = code_module.chunk_code_file, GitTree.__getitem__

    def chunking(path, text, **kwargs):
        seen.chunked.append(path)
        return real_chunk(path, text, **kwargs)

    def reading(self, path):
        seen.read.append(path)
        return real_read(self, path)

    monkeypatch.setattr(code_module, "chunk_code_file", chunking)
    monkeypatch.setattr(GitTree, "__getitem__", reading)
    monkeypatch.setattr(sync_module, "BATCH_CHUNKS", 4)
    return seen


def _module(name: str, extra: str = "") -> str:
    return (f'"""Module {name}."""\n\nimport os\n\nLIMIT = 3\n\n\ndef {name}_one(x):\n    """One of {name}."""\n'
            f"    return x + 1\n\n\nclass {name.capitalize()}Store:\n    def get(self, key):\n"
            f"        return os.environ.get(key)\n{extra}")


FILES = {
    "app/alpha.py": _module("alpha"),
    "app/beta.py": _module("beta"),
    "app/gamma/delta.py": _module("delta"),
    "app/web/widget.ts": "export function widget(a: number): number {\n  return a * 2;\n}\n",
    "app/empty/__init__.py": "",
    "app/broken.py": "def broken(:\n    pass\n",
    "README.md": "# not code\n",
}


def _source(repo: Path, **kwargs: object) -> Source:
    fields: dict[str, object] = {"kind": "code", "dir": ".", "include": ("**/*.py", "**/*.ts"),
                                 "exclude": (), "audiences": ("developer",)} | kwargs
    return Source(name="server", repo=repo, branch="main", **fields)  # type: ignore[arg-type]


async def _sync(pool: asyncpg.Pool, source: Source, seen: Counted, *, full: bool = False,
                settings: Settings | None = None):
    seen.clear()
    report = await sync_sources(pool, SourcesConfig((source,)), settings or get_settings(), None, full=full)
    assert not report.failed, report.warnings
    return report, sorted(seen.chunked)


async def _rows(pool: asyncpg.Pool) -> list[tuple[object, ...]]:
    """Every row as a reader sees it (not xmin)."""
    rows = await pool.fetch(
        "select id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash,"
        " search_vector::text as sv from docs_section order by id")
    return [tuple(r) for r in rows]


async def _shown(pool: asyncpg.Pool) -> dict[str, str]:
    """Every row's href as readers see it (the SQL every door reads it with)."""
    return {r["id"]: r["href"] for r in await pool.fetch(
        "select s.id, s.href from public.docs_section_shown("
        "  array(select distinct a from public.docs_section, unnest(audiences) a)) s")}


async def _xmin(pool: asyncpg.Pool) -> dict[str, int]:
    """Each row's xmin: the transaction that last wrote it."""
    return {r["id"]: int(r["x"]) for r in await pool.fetch("select id, xmin::text as x from docs_section")}


async def _keys(pool: asyncpg.Pool) -> dict[str, bytes]:
    return {r["page"]: r["key"] for r in await pool.fetch("select page, key from docs_page_key")}


@pytest.mark.parametrize("folder", [".", "app"])
async def test_a_no_op_re_sync_of_a_code_source_reads_and_chunks_no_file(
    pool, keyword_only, counted, tmp_path: Path, folder: str,
) -> None:
    """Pages (and keys) are named by the path in the repository, files in the tree by the path in
    the source's folder: with `dir = "app"` the two differ."""
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    first, chunked = await _sync(pool, _source(repo, dir=folder), counted)
    # Every selected file is chunked; the empty one gives no chunk, so it is no page (and no key).
    assert chunked == ["app/alpha.py", "app/beta.py", "app/broken.py", "app/empty/__init__.py",
                       "app/gamma/delta.py", "app/web/widget.ts"]
    pages = ["app/alpha.py", "app/beta.py", "app/broken.py", "app/gamma/delta.py", "app/web/widget.ts"]
    assert sorted(await _keys(pool)) == pages and first.pages == 5 and first.new == first.chunks > 10
    assert any("app/broken.py: does not parse" in w for w in first.warnings)

    # No page is read or chunked; only the empty file, which gives no chunk, hence no page and no key.
    noop, chunked = await _sync(pool, _source(repo, dir=folder), counted)
    assert chunked == ["app/empty/__init__.py"] and counted.read == [f"{'app/' if folder == '.' else ''}empty/__init__.py"]
    assert (noop.pages, noop.chunks, noop.unchanged, noop.new, noop.changed, noop.deleted) == (
        first.pages, first.chunks, first.chunks, 0, 0, 0)
    # A skipped file's warnings are reported as a chunked one's.
    assert [w for w in noop.warnings if "broken" in w] == [w for w in first.warnings if "broken" in w]


async def test_an_edited_file_recomposes_only_itself_and_the_tools_read_the_new_commit(
    pool, keyword_only, counted, tmp_path: Path,
) -> None:
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    await _sync(pool, _source(repo), counted)
    keys = await _keys(pool)
    write_files(repo, {"app/beta.py": _module("beta", "\n\ndef beta_two():\n    return 2\n")})
    commit_all(repo, "edit beta")
    commit = git(repo, "rev-parse", "HEAD").strip()

    report, chunked = await _sync(pool, _source(repo), counted)
    assert chunked == ["app/beta.py", "app/empty/__init__.py"] and report.new == 1
    after = await _keys(pool)
    assert {p for p in after if after[p] != keys[p]} == {"app/beta.py"}
    assert await pool.fetchval("select count(*) from docs_section where id = 'server:app/beta.py#beta_two'") == 1
    # The commit recorded is the new one, and the model's tools read the file there.
    recorded = await pool.fetchval("select commit from docs_source_commit where source = 'server'")
    assert recorded == commit
    assert "beta_two" in str(code_tree(_source(repo), recorded).read_file("app/beta.py")["content"])


async def test_a_deleted_file_loses_its_rows_and_key(pool, keyword_only, counted, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    await _sync(pool, _source(repo), counted)
    (repo / "app/gamma/delta.py").unlink()
    commit_all(repo, "delete delta")
    report, chunked = await _sync(pool, _source(repo), counted)
    assert chunked == ["app/empty/__init__.py"] and report.deleted > 0
    assert "app/gamma/delta.py" not in await _keys(pool)
    assert await pool.fetchval("select count(*) from docs_section where page = 'app/gamma/delta.py'") == 0


async def test_a_setting_that_shapes_chunks_recomposes_every_file(
    pool, keyword_only, counted, tmp_path: Path,
) -> None:
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    every = ["app/alpha.py", "app/beta.py", "app/broken.py", "app/empty/__init__.py", "app/gamma/delta.py",
             "app/web/widget.ts"]
    await _sync(pool, _source(repo), counted)

    # An exclude glob: every file is chunked again; the excluded one's rows and key go.
    _, chunked = await _sync(pool, _source(repo, exclude=("**/gamma/**",)), counted)
    assert chunked == [p for p in every if "gamma" not in p]
    assert "app/gamma/delta.py" not in await _keys(pool)
    assert await pool.fetchval("select count(*) from docs_section where page like 'app/gamma/%'") == 0
    _, chunked = await _sync(pool, _source(repo, exclude=("**/gamma/**",)), counted)
    assert chunked == ["app/empty/__init__.py"]

    # An include glob.
    _, chunked = await _sync(pool, _source(repo, include=("**/*.py",)), counted)
    assert chunked == [p for p in every if p.endswith(".py")]
    assert await pool.fetchval("select count(*) from docs_section where page like '%.ts'") == 0

    # The code chunk size.
    settings = get_settings().model_copy(update={"max_code_chunk_chars": 60})
    _, chunked = await _sync(pool, _source(repo, include=("**/*.py",)), counted, settings=settings)
    assert chunked == [p for p in every if p.endswith(".py")]

    # The link template (it shapes every href).
    _, chunked = await _sync(pool, _source(repo, include=("**/*.py",), link="/src/{path}#L{start}"), counted,
                             settings=settings)
    assert chunked == [p for p in every if p.endswith(".py")]
    assert await pool.fetchval("select bool_and(href like '/src/%') from docs_section")


@pytest.mark.parametrize("link", [None, GITHUB])
async def test_skipped_rows_equal_a_full_sync(pool, keyword_only, counted, tmp_path: Path, link: str | None) -> None:
    """After edits, a deletion, a new file and commits that change nothing the source reads, the
    rows a skipping sync leaves, and the hrefs readers see, are those `--full` composes, and those
    of a sync into an empty index. With either link an unchanged file is neither chunked nor
    rewritten at a new commit: a `{commit}` link is filled when read, with the commit synced."""
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    source = _source(repo, **({"link": link} if link else {}))
    await _sync(pool, source, counted)
    first_commit = git(repo, "rev-parse", "HEAD").strip()
    before = await _xmin(pool)
    write_files(repo, {"app/alpha.py": _module("alpha", "\n\nZETA = 1\n"), "app/new.py": _module("fresh"),
                       "README.md": "# other\n"})
    (repo / "app/beta.py").unlink()
    commit_all(repo, "edit, add, delete")
    commit_all(repo, "an empty commit: a new commit, no file changed")
    commit = git(repo, "rev-parse", "HEAD").strip()

    report, chunked = await _sync(pool, source, counted)
    assert chunked == ["app/alpha.py", "app/empty/__init__.py", "app/new.py"]
    assert report.metadata_only == 0
    after = await _xmin(pool)
    unchanged = [i for i in after if i.startswith(("server:app/broken.py", "server:app/gamma/", "server:app/web/"))]
    assert unchanged and all(after[i] == before[i] for i in unchanged)  # not rewritten
    assert all(after[i] != before.get(i) for i in after if i.startswith(("server:app/alpha.py#ZETA", "server:app/new")))
    shown = await _shown(pool)
    if link is None:
        assert all(h.startswith("/code/app/") for h in shown.values())
    else:
        # Stored with {commit} left in; every door reads them filled with the commit synced.
        assert await pool.fetchval("select bool_and(href like 'https://github.com/acme/server/blob/{commit}/%')"
                                   " from docs_section")
        assert all(h.startswith(f"https://github.com/acme/server/blob/{commit}/app/") for h in shown.values())
        assert first_commit not in str(shown)
    skipped = await _rows(pool)
    keys = await _keys(pool)

    full, chunked = await _sync(pool, source, counted, full=True)
    assert len(chunked) == 6
    assert (full.new, full.changed, full.metadata_only, full.deleted) == (0, 0, 0, 0)
    assert await _rows(pool) == skipped and await _keys(pool) == keys and await _shown(pool) == shown

    await clear_index(pool)
    await _sync(pool, source, counted)
    assert await _rows(pool) == skipped and await _keys(pool) == keys and await _shown(pool) == shown


async def test_a_new_commit_rewrites_no_row_of_a_commit_link_and_readers_follow_it(
    pool, keyword_only, counted, tmp_path: Path,
) -> None:
    """An empty commit: nothing chunked, no row written, and the hrefs readers see move to the new
    commit (as does docs_index_state, which the search box and /llms.txt caches key on)."""
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    source = _source(repo, link=GITHUB)
    await _sync(pool, source, counted)
    before, state = await _xmin(pool), await pool.fetchval("select public.docs_index_state()")
    commit_all(repo, "an empty commit")
    commit = git(repo, "rev-parse", "HEAD").strip()

    report, chunked = await _sync(pool, source, counted)
    assert chunked == ["app/empty/__init__.py"] and report.unchanged == report.chunks and report.metadata_only == 0
    assert await _xmin(pool) == before
    assert all(h.startswith(f"https://github.com/acme/server/blob/{commit}/app/") for h in (await _shown(pool)).values())
    assert await pool.fetchval("select public.docs_index_state()") != state
    # The same commit again changes nothing, not even the index state.
    state = await pool.fetchval("select public.docs_index_state()")
    await _sync(pool, source, counted)
    assert await pool.fetchval("select public.docs_index_state()") == state

    # The link without {commit}: every file recomposed once, the hrefs stored as read.
    _, chunked = await _sync(pool, _source(repo), counted)
    assert len(chunked) == 6
    assert await pool.fetchval("select bool_and(href like '/code/app/%') from docs_section")
    assert await pool.fetchval("select not fill_hrefs from docs_source_commit where source = 'server'")


async def test_a_path_holding_commit_is_not_linked_with_a_commit_link(
    pool, keyword_only, counted, tmp_path: Path,
) -> None:
    """Filling `{commit}` when read would fill it in such a path too: the file is skipped, named."""
    repo = make_docs_repo(tmp_path / "server", FILES | {"app/{commit}.py": _module("odd")}, docs_dir=".")
    report, _ = await _sync(pool, _source(repo, link=GITHUB), counted)
    assert any("app/{commit}.py: a path holding {commit}" in w for w in report.warnings)
    assert await pool.fetchval("select count(*) from docs_section where page = 'app/{commit}.py'") == 0
    await _sync(pool, _source(repo), counted)  # the default link holds no {commit}: indexed
    assert await pool.fetchval("select count(*) from docs_section where page = 'app/{commit}.py'") > 0


async def test_readers_see_the_new_commit_with_the_new_rows_only(
    pool, keyword_only, counted, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read from another connection while the switch's transaction is open (after the rows and
    the commit are written, before it commits): the hrefs are all those before the sync; after
    it, all those a sync into an empty index gives. Never the new commit with old line numbers."""
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    source = _source(repo, link=GITHUB)
    await _sync(pool, source, counted)
    old = await _shown(pool)
    # beta's functions move down two lines; the other files do not change.
    write_files(repo, {"app/beta.py": "# one\n# two\n" + _module("beta")})
    commit_all(repo, "move beta down")
    seen: list[dict[str, str]] = []
    real_switch = sync_apply.switch

    async def switch(conn, *args, **kwargs):
        staged = await real_switch(conn, *args, **kwargs)
        assert conn.is_in_transaction()
        seen.append(await _shown(pool))  # another connection: what a reader sees meanwhile
        return staged

    monkeypatch.setattr(sync_apply, "switch", switch)
    await _sync(pool, source, counted)
    new = await _shown(pool)
    assert seen == [old] and new != old
    monkeypatch.setattr(sync_apply, "switch", real_switch)
    await clear_index(pool)
    await _sync(pool, source, counted)
    assert await _shown(pool) == new


async def test_both_search_legs_read_hrefs_filled(pool, keyword_only, counted, tmp_path: Path) -> None:
    """The keyword and the vector leg (the chat, MCP, the rescue and the CLI read through them)."""
    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    await _sync(pool, _source(repo, link=GITHUB), counted)
    commit = git(repo, "rev-parse", "HEAD").strip()
    # Vectors written by hand (this sync was keyword-only): the leg reads what any model wrote.
    await pool.execute("update docs_section set embedding = array_fill(0.1, array[768])::vector, embedding_model = 'm'")
    vector = await pool.fetch("select href from public.match_docs_sections("
                              "array_fill(0.1, array[768])::vector, 'm', 50, null)")
    keyword = await pool.fetch("select href from public.search_docs_sections('alpha store', 50, null)")
    for rows in (vector, keyword):
        assert rows and all(r["href"].startswith(f"https://github.com/acme/server/blob/{commit}/app/") for r in rows)


def test_docschat_compose_shows_hrefs_filled(tmp_path: Path) -> None:
    """`docschat compose` (compose_corpus) shows the hrefs as readers see them."""
    from app.corpus.compose import compose_corpus

    repo = make_docs_repo(tmp_path / "server", FILES, docs_dir=".")
    commit = git(repo, "rev-parse", "HEAD").strip()
    chunks = compose_corpus(_source(repo, link=GITHUB), get_settings()).chunks
    assert chunks and all(c.href.startswith(f"https://github.com/acme/server/blob/{commit}/app/") for c in chunks)
