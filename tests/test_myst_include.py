"""MyST's `{include}` reads any file of the source's repository at the commit read, as Sphinx reads
its checkout (app/corpus/myst_include.py, app/corpus/repository_files.py): never a path leading
out of the repository or through a symbolic link, never a file for fewer audiences than the page's;
the page's key depends on the file; a cycle refuses the page and a page pastes a bounded amount.

tests/data/site-nav/myst-include is a repository whose docs/ folder is a Sphinx site including
files outside it, recorded by scripts/record_myst_site.py (sphinx-build 9.0.4, myst-parser 5.2.0)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_batches, compose_corpus, compose_files
from app.corpus.myst_include import MAX_INCLUDED_CHARS, MAX_INCLUDES
from app.corpus.repository_files import REPOSITORY
from app.corpus.sources import Source
from tests.helpers import commit_all, git, write_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-include"
CONF = "extensions = ['myst_parser']\n"


def _repository(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(SITE, repo)
    write_files(repo, extra or {})
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return repo


def _source(repo: Path, folder: str) -> Source:
    return Source(name="s", repo=repo, dir=folder, audiences=("public",))


def _shown(result, page: str) -> str:
    return " ".join(chunk.embed_text for chunk in result.chunks if chunk.page == page)


@pytest.mark.parametrize("folder", ["docs", ""])  # the site's folder, or the repository with the site in docs/
def test_an_include_shows_what_sphinx_shows_of_the_repository(folder: str, tmp_path: Path) -> None:
    recorded = json.loads((SITE.parent / "myst-include.shown.json").read_text())["pages"]
    result = compose_corpus(_source(_repository(tmp_path), folder), Settings())
    prefix = "docs/" if not folder else ""
    assert sorted(page.path for page in result.pages) == [prefix + p for p in (
        "guide/listing.md", "guide/repeat.md", "guide/usage.md", "index.md")]  # a part of itself, its own code
    for page in result.pages:
        built, indexed = recorded[page.path.removeprefix(prefix)], _shown(result, page.path)
        assert [m for m in built["shown"] if m not in indexed] == [], page.path
        assert [m for m in built["hidden"] if m in indexed] == [], page.path
    assert sum(len(p.get("hidden", [])) for p in recorded.values()) >= 3


def test_an_include_never_reads_out_of_the_repository_or_through_a_link(tmp_path: Path) -> None:
    """`..` past the repository's root, a `/` path climbing out of it, and a symbolic link (to a
    file outside, and to one inside: git holds a link, not a file) show nothing; the link's target
    is never read from the disk."""
    outside = tmp_path / "secret.md"
    outside.write_text("zzoutsidesecret\n")
    repo = _repository(tmp_path, {"docs/out.md": "---\norphan: true\n---\n# Out\n\nzzoutpage\n\n```{include} ../../secret.md\n```\n\n"
                                                 "```{include} /../../secret.md\n```\n\n"
                                                 "```{include} /../linked.md\n```\n\n```{include} /../inlinked.md\n```\n"})
    (repo / "linked.md").symlink_to(outside)
    (repo / "inlinked.md").symlink_to("NOTICE.md")
    commit_all(repo, "links")
    result = compose_corpus(_source(repo, "docs"), Settings())
    shown = _shown(result, "out.md")
    assert "zzoutpage" in shown and not [word for word in ("zzoutsidesecret", "secret.md", "marker-inc-notice", "NOTICE")
                                         if word in shown]  # nor a link's target path (its blob)
    assert sum("leads out of the repository" in w for w in result.warnings) == 2, result.warnings


def test_an_included_repository_file_for_fewer_audiences_is_refused(tmp_path: Path) -> None:
    repo = _repository(tmp_path, {"STAFF.md": "---\naudience: internal\n---\nzzstaffonly\n",
                                  "docs/staff.md": "---\norphan: true\n---\n# Staff\n\n```{include} ../STAFF.md\n```\n"})
    result = compose_corpus(_source(repo, "docs"), Settings())
    assert "zzstaffonly" not in _shown(result, "staff.md")
    assert any("STAFF.md" in w and "not pasted" in w for w in result.warnings), result.warnings


def test_a_change_to_an_included_repository_file_recomposes_the_page(tmp_path: Path) -> None:
    """index.md includes ../README.md: its key depends on the file (REPOSITORY + path), so an edit
    of README.md composes index.md again and keeps the guide's pages."""
    repo = _repository(tmp_path)

    def compose(known=None):
        kept, pages, keys = [], [], {}
        for part in compose_batches(_source(repo, "docs"), Settings(), batch_chunks=100, known=known):
            kept += [k.page for k in part.kept]
            pages += [p.path for p in part.pages]
            keys |= {k.page: k for k in part.page_keys}
        return kept, pages, keys

    _, pages, keys = compose()
    everything = ["guide/listing.md", "guide/repeat.md", "guide/usage.md", "index.md"]
    assert sorted(pages) == everything and REPOSITORY + "README.md" in keys["index.md"].deps
    assert sorted(compose(keys)[0]) == everything  # a no-op composes nothing
    readme = (repo / "README.md").read_text().replace("turns parts", "zzedited turns parts")
    write_files(repo, {"README.md": readme})
    commit_all(repo, "edit the README")
    kept, pages, _ = compose(keys)
    assert sorted(kept) == everything[:-1] and pages == ["index.md"]


@pytest.mark.parametrize("files", [
    {"index.md": "# I\n\nzzbefore\n\n```{include} index.md\n```\n"},  # itself
    {"index.md": "# I\n\n```{include} a.md\n```\n", "a.md": "zza\n\n```{include} b.md\n```\n",
     "b.md": "zzb\n\n```{include} a.md\n```\n"},  # two files including each other
    # a part of itself that holds the same include (sphinx-build 9.0.4: RecursionError)
    {"index.md": "# I\n\n<!-- a -->\nzzpart\n\n```{include} index.md\n:start-after: <!-- a -->\n```\n"},
])
def test_an_include_cycle_refuses_the_page_as_sphinx_fails(files: dict[str, str]) -> None:
    """sphinx-build 9.0.4 with myst-parser 5.2.0 fails with a RecursionError (no page built):
    the page is refused, in bounded time, instead of pasting 2^8 copies."""
    started = time.monotonic()
    result = compose_files({"conf.py": CONF + "exclude_patterns = ['a.md', 'b.md']\n", **files}, Settings())
    assert time.monotonic() - started < 10
    assert "index.md" in result.skipped_pages and not result.chunks
    assert any("RecursionError" in w and "index.md" in w for w in result.warnings), result.warnings


def test_what_a_page_includes_is_bounded() -> None:
    """A file included many times in files included many times (10 a level, 8 levels: 10^8 pastes
    in Sphinx): at most MAX_INCLUDES pastes and MAX_INCLUDED_CHARS characters, then a warning
    naming the include left out; in bounded time."""
    fan = {f"f{level}.md": f"zzlevel{level}\n\n" + f"```{{include}} f{level + 1}.md\n```\n\n" * 10 for level in range(8)}
    big = {"big.md": "zzbig " * (MAX_INCLUDED_CHARS // 12), "many.md": "# Many\n\n" + "```{include} big.md\n```\n\n" * 3}
    conf = CONF + "exclude_patterns = ['f*.md', 'big.md', 'leaf.md']\n"
    started = time.monotonic()
    result = compose_files({"conf.py": conf, "index.md": "# I\n\n```{include} f0.md\n```\n", **fan, **big}, Settings())
    assert time.monotonic() - started < 60
    shown = _shown(result, "index.md")
    assert "zzlevel0" in shown and "zzlevel7" in shown
    assert sum(w.startswith("index.md: {include}") and f"at most {MAX_INCLUDES}" in w for w in result.warnings) == 1
    small = {"small.md": "# Small\n\n" + "```{include} leaf.md\n```\n\n" * (MAX_INCLUDES + 20), "leaf.md": "zzleaf\n"}
    small_result = compose_files({"conf.py": conf, **small}, Settings())
    assert _shown(small_result, "small.md").count("zzleaf") == MAX_INCLUDES
    assert any(w.startswith("small.md: {include} leaf.md not pasted") for w in small_result.warnings)
    many = _shown(result, "many.md")
    assert many.count("zzbig") == 2 * (MAX_INCLUDED_CHARS // 12), "two copies fit; the third is left out"
    assert any(w.startswith("many.md: {include} big.md not pasted") for w in result.warnings), result.warnings


def test_a_source_read_in_memory_keys_a_page_on_the_file_it_includes() -> None:
    """A repository source read from its root with the site in docs/: README.md is a file of the
    source, outside the site, and the page's key depends on its blob id as given."""
    import hashlib

    from app.corpus.compose import iter_compose_files

    files = {"docs/conf.py": CONF, "docs/index.md": "# I\n\n```{include} ../README.md\n```\n", "README.md": "zzone\n"}
    source = Source(name="s", repo=Path("."), dir="", audiences=("public",))

    def compose(known=None):
        parts = list(iter_compose_files(files, Settings(), source, blob_id=lambda p: hashlib.sha1(
            files[p].encode()).hexdigest() if p in files else None, known=known))
        return [p for part in parts for p in part.pages], {k.page: k for part in parts for k in part.page_keys}

    pages, keys = compose()
    assert "zzone" in pages[0].body and keys["docs/index.md"].deps == ("/repository/README.md", "docs/index.md")
    assert compose(keys)[0] == []
    files["README.md"] = "zztwo\n"
    assert "zztwo" in compose(keys)[0][0].body
