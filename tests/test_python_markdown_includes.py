"""MkDocs sites written as FastAPI's and Typer's are: `{* docs_src/… *}` lines read by the real
markdown-include-variants and `{!…!}` lines by the real mdx-include, their files from the source's
git tree (app/corpus/python_markdown_includes.py).

tests/data/site-nav/mkdocs-include.shown.json is what MkDocs 1.6.1 (Material for MkDocs) builds of
tests/data/site-nav/mkdocs-include, Chromium's innerText of the page's article with its details and
tabs opened: scripts/record_mkdocs_site.py (its site folder given).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files, iter_compose_files
from app.corpus.sources import Source
from tests.helpers import copy_tree_as_repo, recording_server

SITE = Path(__file__).parent / "data" / "site-nav" / "mkdocs-include"
_CONFIG = ("site_name: A\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.superfences\n  - pymdownx.blocks.details\n"
           "  - pymdownx.blocks.tab:\n      alternate_style: true\n  - mdx_include\n  - markdown_include_variants\n")


def _compose(files: dict[str, str]):
    return compose_files(files, Settings(), Source(name="site", repo=Path("."), audiences=("public",)))


def _words(text: str) -> set[str]:
    """The text's words, without the Markdown a chunk writes (a fence's backticks and language,
    `code`, **bold**). Material's tabs write their labels in one run ("Python 3.8+Python 3.10+"),
    which docschat reads each before its panel (python_markdown.py): they are split here."""
    text = text.replace("```python", " ").replace("+Python", "+ Python")
    return {word.strip("`*") for word in text.split()} - {""}


def test_chunks_show_what_the_mkdocs_build_shows_of_included_code(tmp_path: Path) -> None:
    recorded = json.loads((SITE.parent / "mkdocs-include.shown.json").read_text())
    assert "markdown-include-variants 0.0.8" in recorded["renderer"]
    repo = copy_tree_as_repo(SITE, tmp_path / "site", docs_dir="site")
    result = compose_corpus(Source(name="site", repo=repo, dir="site", audiences=("public",)), Settings())
    indexed = " ".join(chunk.text for chunk in result.chunks if chunk.page == "docs/index.md")
    built = recorded["pages"]["docs/index.md"]
    assert [m for m in built["shown"] if m not in indexed] == []
    assert [m for m in built["hidden"] if m in indexed] == [] and len(built["hidden"]) == 4
    assert "{*" not in indexed and "{!" not in indexed
    # Every word: the tab titles, the omitted-code comments, the variants' tip, the code.
    assert _words(indexed) == _words(recorded["texts"]["docs/index.md"])
    assert [w for w in result.warnings if "'docs_src/missing.md' pastes nothing" in w]


def test_an_include_never_reads_outside_the_tree(tmp_path: Path) -> None:
    """Not the disk (an absolute path, `..` out of the tree, `~`, a file beside the process that
    the tree does not hold), nor the network (`allow_remote: true` is overridden). A `{* *}` line
    naming no file of the tree (the real build fails) is left out, with a warning; the page is read."""
    outside = tmp_path / "secret.py"
    outside.write_text("marker_disk = 1\n")
    depth = "../" * (len(tmp_path.parts) + 2)
    with recording_server(b"marker-downloaded\n") as (port, asked):
        lines = [f"{{* {outside} *}}", f"{{* {depth}{str(outside).lstrip('/')} *}}", "{* docs_src/missing.py *}",
                 f"{{!{outside}!}}", f"{{!{depth}{str(outside).lstrip('/')}!}}", "{!~/secret.py!}",
                 "{!pyproject.toml!}", f"{{!http://127.0.0.1:{port}/x.md!}}", "{* docs_src/ok.py *}"]
        result = _compose({"mkdocs.yml": _CONFIG.replace("  - mdx_include\n", "  - mdx_include:\n      allow_remote: true\n"),
                           "docs/a.md": "# A\n\nShown.\n\n" + "\n\n".join(lines) + "\n",
                           "docs_src/ok.py": "marker_ok = 1\n"})
    text = " ".join(chunk.text for chunk in result.chunks)
    assert "Shown." in text and "marker_ok" in text and result.pages and not result.skipped_pages
    assert "marker_disk" not in text and "[project]" not in text and "marker-downloaded" not in text and asked == []
    assert "{*" not in text and "{!" not in text
    assert result.snippets_unresolved == 7
    assert [w for w in result.warnings if "'docs_src/missing.py' pastes nothing" in w]


def test_a_changed_or_added_variant_changes_the_key_of_the_pages_that_include_it() -> None:
    files = {"mkdocs.yml": _CONFIG, "docs/a.md": "# A\n\n{* docs_src/t001_py310.py *}\n",
             "docs/b.md": "# B\n\nNo include.\n", "docs_src/t001_py310.py": "one = 1\n"}
    blobs = {path: "1" for path in files}
    source = Source(name="site", repo=Path("."), audiences=("public",))

    def keys() -> dict[str, bytes]:
        parts = iter_compose_files(files, Settings(), source, blob_id=blobs.get)
        return {key.page: key.key for part in parts for key in part.page_keys}

    before = keys()
    deps = next(key.deps for part in iter_compose_files(files, Settings(), source, blob_id=blobs.get)
                for key in part.page_keys if key.page == "docs/a.md")
    assert {"docs_src/t001_py310.py", "docs_src/t001.py", "docs_src/t001_an_py310.py"} <= set(deps)
    blobs["docs_src/t001_py310.py"] = "2"
    edited = keys()
    blobs["docs_src/t001.py"] = "3"  # a variant it looked for appears
    added = keys()
    assert before["docs/a.md"] != edited["docs/a.md"] != added["docs/a.md"]
    assert before["docs/b.md"] == edited["docs/b.md"] == added["docs/b.md"]


def test_reading_a_site_with_the_includes_leaves_the_root_logger_as_it_was() -> None:
    """mdx_include calls logging.basicConfig() when imported: checking a site's options (the parent
    process) must not leave a stderr handler on the root logger (issue 46: no process-wide side
    effects). A fresh interpreter: the module is imported once a process."""
    code = ("import logging; from app.corpus.python_markdown import site_extensions; "
            "site_extensions(['mdx_include', 'markdown_include_variants'], 'x'); "
            "import sys; assert 'mdx_include.mdx_include' in sys.modules; print(len(logging.getLogger().handlers))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent.parent)
    assert out.stdout.strip() == "0", out
