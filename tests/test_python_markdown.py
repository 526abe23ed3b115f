"""MkDocs pages are read by Python-Markdown with the site's extensions, as MkDocs reads them
(app/corpus/python_markdown.py), and what the built page shows is what is indexed.

tests/data/site-nav/mkdocs.shown.json is what MkDocs 1.6.1 (Material for MkDocs) builds of
tests/data/site-nav/mkdocs, Chromium's innerText of each page's article with its details and tabs
opened: scripts/record_mkdocs_site.py.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files, iter_compose_files
from app.corpus.python_markdown import site_extensions, without_meta
from app.corpus.site import read_site, site_dialect
from app.corpus.sources import Source
from tests.helpers import copy_tree_as_repo, recording_server

SITES = Path(__file__).parent / "data" / "site-nav"


def _compose(files: dict[str, str]):
    return compose_files(files, Settings(), Source(name="site", repo=Path("."), audiences=("public",)))


def _indexed(files: dict[str, str]) -> str:
    return " ".join(chunk.text for chunk in _compose(files).chunks)


def test_chunks_show_what_the_mkdocs_build_shows(tmp_path: Path) -> None:
    recorded = json.loads((SITES / "mkdocs.shown.json").read_text())
    assert "mkdocs 1.6" in recorded["renderer"]
    repo = copy_tree_as_repo(SITES / "mkdocs", tmp_path / "mkdocs", docs_dir="site")
    result = compose_corpus(Source(name="site", repo=repo, dir="site", audiences=("public",)), Settings())
    assert result.pages and not result.skipped_pages
    for page in result.pages:
        built = recorded["pages"][page.path]
        assert built["built"] and not built.get("redirect"), f"{page.path} is indexed, yet the site publishes no page"
        indexed = " ".join(c.embed_text for c in result.chunks if c.page == page.path)
        assert [m for m in built["shown"] if m not in indexed] == [], page.path
        assert [m for m in built["hidden"] if m in indexed] == [], page.path
    hidden = sum(len(p.get("hidden", [])) for p in recorded["pages"].values())
    assert hidden >= 14  # the hidden blocks are there to be checked
    # An emoji is no marker: what the page shows between two markers is compared whole.
    shown = recorded["texts"]["docs/reference/emoji.md"]
    indexed = " ".join(c.text for c in result.chunks if c.page == "docs/reference/emoji.md")
    assert _between(indexed) == _between(shown) == ""


def _between(text: str, start: str = "marker-mk-emoji-before", end: str = "marker-mk-emoji-after") -> str:
    return " ".join(text.split(start, 1)[1].split(end, 1)[0].split())


@pytest.mark.parametrize("generator, shown", [
    (None, ""), ("pymdownx.emoji.to_svg", ""), ("pymdownx.emoji.to_alt", "😄"), ("os.system", ""),
])
def test_an_emoji_shows_what_its_generator_shows(generator: str | None, shown: str) -> None:
    """Checked with `mkdocs build` 1.6.1 and Chromium's innerText: an emoji drawn as an image (the
    default to_png, to_svg) shows no text, to_alt its character; Material's icons are emoji only
    with Material's index (the recorded site), else the shortcode stays text."""
    options = f"\n      emoji_generator: !!python/name:{generator}" if generator else ""
    files = {"mkdocs.yml": f"site_name: A\nmarkdown_extensions:\n  - pymdownx.emoji:{options or ' {}'}\n",
             "docs/a.md": "# A\n\nmarker-mk-emoji-before :smile: :material-check: marker-mk-emoji-after\n"}
    result = _compose(files)
    assert _between(result.chunks[0].text) == f"{shown} :material-check:".strip()
    assert bool(result.warnings) is (generator == "os.system")


def test_an_admonition_body_is_text_and_its_fence_code() -> None:
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions: [admonition, pymdownx.superfences]\n",
             "docs/a.md": '# A\n\n!!! note "Heads up"\n    Body text.\n\n    ```python\n    x = 1\n    ```\n'}
    page = _compose(files).pages[0]
    assert ("Heads up", "text") in [(b.text, b.kind) for b in page.blocks]
    assert ("Body text.", "text") in [(b.text, b.kind) for b in page.blocks]
    assert ("```python\nx = 1\n```", "code") in [(b.text, b.kind) for b in page.blocks]


def test_pages_of_other_sites_are_still_commonmark() -> None:
    """Without mkdocs.yml a `.md` page is CommonMark: an indented admonition body is code."""
    files = {"docs/a.md": "# A\n\n!!! note\n\n    Body text.\n"}
    site = read_site(files)
    assert site_dialect(site, files).python_markdown is None
    assert [b.kind for b in _compose(files).pages[0].blocks] == ["heading", "text", "code"]


@pytest.mark.parametrize("config", ["site_name: [unclosed\n", "- a list\n", "site_name: A\nmarkdown_extensions: 7\n"])
def test_an_mkdocs_site_whose_config_cannot_be_read_is_still_python_markdown(config: str) -> None:
    files = {"mkdocs.yml": config, "docs/a.md": "# A\n\nText.\n\n    Four spaces in: code, also in Python-Markdown.\n"
                                                  "\n```\nfenced\n```\n"}
    site = read_site(files)
    assert [m for m, _ in json.loads(site_dialect(site, files).python_markdown or "[]")] == [
        "markdown.extensions.toc", "markdown.extensions.tables", "markdown.extensions.fenced_code"]
    assert [b.kind for b in _compose(files).pages[0].blocks] == ["heading", "text", "code", "code"]


def test_an_extension_outside_the_allowlist_is_never_imported(tmp_path: Path, monkeypatch) -> None:
    """An extension name is a module Python-Markdown imports: a repository naming one of its own
    must not run it. The module here writes a file when imported."""
    (tmp_path / "docschat_probe_extension.py").write_text(
        f"open({str(tmp_path / 'imported')!r}, 'w').write('yes')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions:\n  - docschat_probe_extension\n"
                           "  - markdown.extensions.docschat_probe_extension\n  - admonition\n",
             "docs/a.md": "# A\n\nText. marker-shown\n"}
    result = _compose(files)
    assert not (tmp_path / "imported").exists() and "docschat_probe_extension" not in sys.modules
    assert "marker-shown" in " ".join(c.text for c in result.chunks)
    assert len([w for w in result.warnings if "'docschat_probe_extension'" in w and "left out" in w]) == 1
    assert any("'markdown.extensions.docschat_probe_extension'" in w for w in result.warnings)


_SNIPPETS = "site_name: A\nmarkdown_extensions:\n  - pymdownx.snippets:\n      base_path: [includes]\n"


def test_snippets_paste_the_files_of_the_tree() -> None:
    """As `mkdocs build` pastes them (the sample site's reference/snippets.md, recorded): a whole
    file, a section, a line range, a block, a snippet in a snippet; a file not there pastes nothing,
    with a warning. (No range here starts at line 1: pymdown-extensions 10.0.1 to 10.4 at least
    never paste line 1, and docschat reads as the installed version does.)"""
    files = {"mkdocs.yml": _SNIPPETS + "      auto_append: [abbr.md]\n",
             "docs/a.md": '# A\n\n--8<-- "whole.md"\n\n--8<-- "parts.md:two"\n\n--8<-- "parts.md:5:5"\n\n'
                          '--8<--\nsub/block.md\n--8<--\n\n--8<-- "missing.md"\n',
             "includes/whole.md": 'Whole marker-whole\n\n--8<-- "sub/block.md"\n',
             "includes/parts.md": "One marker-line1\n--8<-- [start:two]\nTwo marker-two\n--8<-- [end:two]\n"
                                  "Five marker-line5\n",
             "includes/sub/block.md": "Block marker-block\n", "includes/abbr.md": "Appended marker-appended\n"}
    result = _compose(files)
    text = " ".join(c.text for c in result.chunks)
    for marker in ("marker-whole", "marker-two", "marker-line5", "marker-block", "marker-appended"):
        assert marker in text
    assert "marker-line1" not in text and text.count("marker-block") == 2
    assert [w for w in result.warnings if "'missing.md' pastes nothing" in w] and result.snippets_unresolved == 1


@pytest.mark.parametrize("restrict", ["true", "false"])
def test_a_snippet_never_reads_outside_the_tree(tmp_path: Path, restrict: str) -> None:
    """Not the disk (an absolute path, `..` out of the tree, a file beside the process that the
    tree does not hold), whatever `restrict_base_path` says; inside the tree, `..` out of the base
    path is refused as the extension refuses it (the recorded site's private/token.md)."""
    outside = tmp_path / "secret.md"
    outside.write_text("marker-disk\n")
    depth = "../" * (len(tmp_path.parts) + 2)
    files = {"mkdocs.yml": _SNIPPETS + f"      restrict_base_path: {restrict}\n",
             "docs/a.md": f'# A\n\nShown.\n\n--8<-- "{outside}"\n\n--8<-- "{depth}{str(outside).lstrip("/")}"\n\n'
                          '--8<-- "pyproject.toml"\n\n--8<-- "../../pyproject.toml"\n\n--8<-- "../private.md"\n',
             "private.md": "marker-beside\n"}
    result = _compose(files)
    text = " ".join(c.text for c in result.chunks)
    assert "Shown." in text and "marker-disk" not in text and "[project]" not in text
    assert ("marker-beside" in text) is (restrict == "false")  # in the tree: the extension decides
    assert result.snippets_unresolved == 4 + (restrict == "true")


@pytest.mark.parametrize("base_path", ["!relative $config_dir",
                                       "[!relative $docs_dir/partials, !relative $config_dir]"])
def test_snippets_base_path_written_relative_to_the_config_or_docs_dir(base_path: str) -> None:
    """MkDocs' `!relative $config_dir` and `$docs_dir` placeholders, the idiom its docs recommend:
    checked with `mkdocs build` 1.6.1, which pastes includes/x.md with either, p.md with the second."""
    files = {"mkdocs.yml": f"site_name: A\ndocs_dir: site-docs\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
                           f"      base_path: {base_path}\n",
             "site-docs/index.md": '# A\n\n--8<-- "includes/x.md"\n\n--8<-- "p.md"\n',
             "includes/x.md": "Root include marker-root\n", "site-docs/partials/p.md": "Partial marker-partial\n"}
    result = _compose(files)
    text = " ".join(c.text for c in result.chunks if c.page == "site-docs/index.md")
    assert "marker-root" in text and ("marker-partial" in text) is ("docs_dir" in base_path)
    assert not [w for w in result.warnings if "YAML tag" in w]


def test_a_snippet_for_fewer_audiences_is_not_pasted_into_the_page() -> None:
    """As a Mintlify snippet: a public page cannot publish the text of a file declared internal (the
    site pastes it, front matter and all; docschat fails closed). A file that declares nothing, or
    every audience of the page, is pasted."""
    files = {"mkdocs.yml": _SNIPPETS,
             "docs/a.md": '---\naudience: public\n---\n# A\n\nShown.\n\n--8<-- "keys.md"\n\n--8<-- "plain.md"\n',
             "docs/b.md": '---\naudience: internal\n---\n# B\n\n--8<-- "keys.md"\n',
             "includes/keys.md": "---\naudience: internal\n---\nRotate with SECRETWORD.\n",
             "includes/plain.md": "Pasted marker-plain.\n"}
    result = _compose(files)
    text = {page.path: " ".join(c.text for c in result.chunks if c.page == page.path) for page in result.pages}
    assert "SECRETWORD" not in text["docs/a.md"] and "marker-plain" in text["docs/a.md"]
    assert "SECRETWORD" in text["docs/b.md"]
    assert any("docs/a.md" in w and "includes/keys.md" in w and "internal" in w for w in result.warnings)


def test_a_snippet_under_a_folder_meta_file_has_its_audience() -> None:
    """With Material's meta plugin, a `.meta.yml` saying `audience: internal` is the front matter of
    every file under its folder, a snippet pasted elsewhere too: not pasted into a public page."""
    files = {"mkdocs.yml": _SNIPPETS.replace("[includes]", "[docs]") + "plugins: [meta]\n",
             "docs/a.md": '---\naudience: public\n---\n# A\n\nShown.\n\n--8<-- "team/keys.md"\n',
             "docs/team/.meta.yml": "audience: internal\n", "docs/team/keys.md": "Rotate with SECRETWORD.\n"}
    result = _compose(files)
    assert "SECRETWORD" not in " ".join(c.text for c in result.chunks if c.page == "docs/a.md")
    assert [page.audiences for page in result.pages if page.path == "docs/team/keys.md"] == [("internal",)]


def test_a_missing_snippet_refuses_the_page_when_check_paths_says_so() -> None:
    files = {"mkdocs.yml": _SNIPPETS + "      check_paths: true\n",
             "docs/a.md": '# A\n\n--8<-- "missing.md"\n', "docs/b.md": "# B\n\nShown.\n"}
    result = _compose(files)
    assert [page.path for page in result.pages] == ["docs/b.md"] and result.skipped_pages == ["docs/a.md"]
    assert any("docs/a.md" in w and "SnippetMissingError" in w and "missing.md" in w for w in result.warnings)


def test_a_url_snippet_is_never_downloaded() -> None:
    """`url_download: true` is overridden: compose reads no network."""
    with recording_server(b"marker-downloaded\n") as (port, asked):
        files = {"mkdocs.yml": _SNIPPETS + "      url_download: true\n",
                 "docs/a.md": f'# A\n\nShown.\n\n--8<-- "http://127.0.0.1:{port}/s.md"\n'}
        result = _compose(files)
    assert "marker-downloaded" not in " ".join(c.text for c in result.chunks) and asked == []
    assert any("never downloaded" in w for w in result.warnings)


def test_a_changed_or_added_snippet_changes_the_key_of_the_pages_that_paste_it() -> None:
    files = {"mkdocs.yml": _SNIPPETS, "docs/a.md": '# A\n\n--8<-- "s.md"\n\n--8<-- "later.md"\n',
             "docs/b.md": "# B\n\nNo snippet.\n", "includes/s.md": "One.\n"}
    blobs = {path: "1" for path in files}
    source = Source(name="site", repo=Path("."), audiences=("public",))

    def keys() -> dict[str, bytes]:
        parts = iter_compose_files(files, Settings(), source, blob_id=blobs.get)
        return {key.page: key.key for part in parts for key in part.page_keys}

    before = keys()
    assert {"includes/s.md", "includes/later.md"} <= set(next(
        key.deps for part in iter_compose_files(files, Settings(), source, blob_id=blobs.get)
        for key in part.page_keys if key.page == "docs/a.md"))
    blobs["includes/s.md"] = "2"
    edited = keys()
    blobs["includes/later.md"] = "3"  # the snippet it looked for appears
    added = keys()
    assert before["docs/a.md"] != edited["docs/a.md"] != added["docs/a.md"]
    assert before["docs/b.md"] == edited["docs/b.md"] == added["docs/b.md"]


def test_options_written_with_python_tags_are_dropped_with_a_warning() -> None:
    config = ("site_name: A\nmarkdown_extensions:\n  - toc:\n      slugify: !!python/name:os.system\n"
              "      toc_depth: 3\n  - pymdownx.superfences:\n      custom_fences:\n        - name: mermaid\n"
              "          class: mermaid\n          format: !!python/name:pymdownx.superfences.fence_code_format\n")
    files = {"mkdocs.yml": config, "docs/a.md": "# A\n\n```mermaid\ngraph marker-fence\n```\n"}
    site = read_site(files)
    extensions = dict(json.loads(site.markdown_extensions))
    assert extensions["markdown.extensions.toc"] == {"permalink": False, "anchorlink": False, "toc_depth": 3}
    assert extensions["pymdownx.superfences"] == {}
    assert len([w for w in site.warnings if "YAML tag" in w]) == 2
    assert "marker-fence" in _indexed(files)


def test_options_an_extension_refuses_are_a_warning_and_its_defaults() -> None:
    extensions, warnings = site_extensions([{"smarty": {"smart_quotes": "perhaps"}}, 7], "mkdocs.yml")
    assert dict(json.loads(extensions))["markdown.extensions.smarty"] == {}
    assert any("refused" in w and "smarty" in w for w in warnings)
    assert any("is not a name" in w for w in warnings)
    assert site_extensions("admonition", "mkdocs.yml")[1]  # not a list: a warning, the built-ins kept


def test_options_that_are_not_plain_json_or_explode_never_stop_the_site() -> None:
    laughs = "".join(f"  l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))
    config = ("site_name: A\nlaughs:\n  l0: &l0 [x]\n" + laughs +
              "markdown_extensions:\n  - toc:\n      title: 2024-01-31\n  - abbr:\n      glossary: *l9\n"
              "  - smarty:\n      substitutions: " + "{a: " * 40 + "x" + "}" * 40 + "\n")
    files = {"mkdocs.yml": config, "docs/a.md": "# A\n\nText.\n"}
    started = time.monotonic()
    site = read_site(files)
    assert time.monotonic() - started < 5
    extensions = dict(json.loads(site.markdown_extensions))
    assert extensions["markdown.extensions.toc"]["title"] == "2024-01-31"
    assert extensions["markdown.extensions.abbr"] == {} and extensions["markdown.extensions.smarty"] == {}
    assert len([w for w in site.warnings if "more than 10,000 values" in w]) == 2
    assert "Text." in _indexed(files)


@pytest.mark.parametrize(("text", "shown"), [
    ("Title: x\nAuthor: y\n    more\n\nBody", "Body"),
    ("Title: x\nNot meta\n\nBody", "Not meta\n\nBody"),
    ("# Heading\nTitle: x\n", "# Heading\nTitle: x\n"),
])
def test_multimarkdown_meta_data_is_not_text(text: str, shown: str) -> None:
    """As mkdocs/utils/meta.py's get_data reads a page without YAML front matter."""
    assert without_meta(text) == shown


def test_meta_lines_after_front_matter_are_text() -> None:
    files = {"mkdocs.yml": "site_name: A\n", "docs/a.md": "---\ntitle: A\n---\nNote: marker-after-front-matter\n"}
    assert "marker-after-front-matter" in _indexed(files)


@pytest.mark.parametrize("option", ["permalink", "anchorlink"])
def test_permalinks_are_not_heading_text(option: str) -> None:
    files = {"mkdocs.yml": f"site_name: A\nmarkdown_extensions:\n  - toc:\n      {option}: true\n",
             "docs/a.md": "# A\n\n## Install\n\nText.\n"}
    assert ("## Install", "heading") in [(b.text, b.kind) for b in _compose(files).pages[0].blocks]


def test_each_tab_label_stands_before_its_panel_and_footnotes_lose_their_back_link() -> None:
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions:\n  - footnotes\n  - pymdownx.tabbed:\n"
                           "      alternate_style: true\n",
             "docs/a.md": '# A\n\n=== "One"\n\n    First.[^1]\n\n=== "Two"\n\n    Second.\n\n[^1]: A note.\n'}
    blocks = [b.text for b in _compose(files).pages[0].blocks]
    assert blocks[1:5] == ["One", "First.[1](#fn:1)", "Two", "Second."]
    assert blocks[-1] == "1. A note."


def test_block_tabs_labels_stand_apart_too() -> None:
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions:\n  - pymdownx.blocks.tab:\n      alternate_style: true\n",
             "docs/a.md": "# A\n\n/// tab | One\nFirst.\n///\n\n/// tab | Two\nSecond.\n///\n"}
    assert [b.text for b in _compose(files).pages[0].blocks][1:] == ["One", "First.", "Two", "Second."]


def test_math_is_its_tex() -> None:
    """Without `generic`, arithmatex writes math into a MathJax `<script>` and a preview of it (shown
    until MathJax renders it): the TeX is indexed once."""
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions: [pymdownx.arithmatex]\n",
             "docs/a.md": "# A\n\nEnergy $E = mc^2$ here.\n\n$$\na^2 + b^2\n$$\n"}
    indexed = _indexed(files)
    assert indexed.count("E = mc^2") == 1 and indexed.count("a^2 + b^2") == 1


def test_a_page_python_markdown_is_slow_on_is_refused_in_bounded_time(monkeypatch) -> None:
    """Python-Markdown took over a minute on 50,000 `[a](`: the worker rendering it is stopped at
    the time limit, the page refused with a message naming it, and the next page is read."""
    from app.corpus import python_markdown

    monkeypatch.setattr(python_markdown, "MAX_SECONDS", 1.0)
    files = {"mkdocs.yml": "site_name: A\n", "docs/slow.md": "# Slow\n\n" + "[a](" * 50_000,
             "docs/z.md": "# Z\n\nAfter it. marker-after-slow\n"}
    started = time.monotonic()
    result = _compose(files)
    assert time.monotonic() - started < 30
    assert result.skipped_pages == ["docs/slow.md"]
    assert any("docs/slow.md" in w and "time limit (1 s)" in w for w in result.warnings)
    assert "marker-after-slow" in " ".join(c.text for c in result.chunks)


DEEP_LIST = "".join("    " * i + "- x\n" for i in range(400))


def _deep_list_fails() -> bool:
    """Whether the installed Python-Markdown fails on DEEP_LIST, as MkDocs' build then does: up to
    3.11.3 it raises RecursionError; 3.11.4 caps list nesting and renders it."""
    import markdown

    try:
        markdown.markdown(DEEP_LIST)
    except RecursionError:
        return True
    return False


def test_a_page_nested_too_deeply_is_refused() -> None:
    """Refused where the installed Python-Markdown fails on it (the site's build fails too); read
    where it renders it."""
    result = _compose({"mkdocs.yml": "site_name: A\n", "docs/deep.md": DEEP_LIST})
    if _deep_list_fails():
        assert result.skipped_pages == ["docs/deep.md"]
        assert any("nested too deeply" in w for w in result.warnings)
    else:
        assert result.skipped_pages == [] and "x" in " ".join(c.text for c in result.chunks)


def test_a_page_read_after_a_refused_one_reads_as_it_does_alone() -> None:
    """A page nested too deeply left the worker's shared renderer with one block-parser state per
    open list (496 after one such page): every later page was read differently, and a second deep
    page could be read instead of refused (a CI run failed so)."""
    from app.corpus.python_markdown import _render_here, site_extensions

    if not _deep_list_fails():
        pytest.skip("the installed Python-Markdown caps list nesting: no page fails mid-parse this way")
    extensions, _ = site_extensions(None, "mkdocs.yml")
    page = "- a\n    - b\n\n        more of b\n\n- c\n\nA paragraph.\n"
    alone = _render_here(page, extensions, "/nonexistent")[0]
    with pytest.raises(RecursionError):
        _render_here(DEEP_LIST, extensions, "/nonexistent")
    assert _render_here(page, extensions, "/nonexistent")[0] == alone


def test_an_allowed_extension_that_cannot_be_loaded_is_left_out(monkeypatch) -> None:
    """An older pymdown-extensions lacks some allowed extensions: left out, never every page refused."""
    from app.corpus import python_markdown

    monkeypatch.setattr(python_markdown, "_PYMDOWNX", python_markdown._PYMDOWNX | {"not_in_this_version"})
    extensions, warnings = site_extensions(["pymdownx.not_in_this_version", "admonition"], "mkdocs.yml")
    assert "pymdownx.not_in_this_version" not in dict(json.loads(extensions))
    assert any("cannot be loaded" in w for w in warnings)
    html, error, _ = python_markdown.render("!!! note\n    Body.\n", extensions)
    assert error is None and 'class="admonition note"' in (html or "")


def test_mkdocs_builds_pages_from_every_markdown_extension_it_knows() -> None:
    """Checked with `mkdocs build` 1.6.1 (mkdocs.utils.markdown_extensions): `.markdown`, `.mdown`,
    `.mkdn`, `.mkd` and `.md` are pages, at the route without their extension, and a `snippets`
    folder of docs_dir is built too; a `.txt` file is not. Another site builds `.md` and `.mdx` only."""
    pages = {"docs/index.md": "# A\n", "docs/sub/m.markdown": "# M\n\nmarker-m\n", "docs/sub/n.mdown": "# N\n",
             "docs/sub/k.mkdn": "# K\n", "docs/sub/x.mkd": "# X\n", "docs/snippets/s.md": "# S\n\nmarker-s\n",
             "docs/sub/t.txt": "# T\n"}
    result = _compose({"mkdocs.yml": "site_name: A\n", **pages})
    assert sorted(page.path for page in result.pages) == sorted(p for p in pages if not p.endswith(".txt"))
    assert {c.href.split("#")[0] for c in result.chunks if c.page == "docs/sub/m.markdown"} == {"/docs/sub/m"}  # DOCS_URL_PREFIX, then sub/m
    assert "marker-m" in _indexed({"mkdocs.yml": "site_name: A\n", **pages})
    assert [page.path for page in _compose(pages).pages] == ["docs/index.md"]  # no mkdocs.yml


def test_mkdocs_builds_only_the_markdown_files_of_its_docs_dir() -> None:
    """Checked with `mkdocs build` 1.6.1: README.md beside mkdocs.yml and docs/b.mdx are no pages."""
    files = {"mkdocs.yml": "site_name: A\n", "README.md": "# Readme\n\nmarker-readme\n",
             "docs/a.md": "# A\n\nmarker-a\n", "docs/b.mdx": "# B\n\nmarker-b\n"}
    result = _compose(files)
    assert [page.path for page in result.pages] == ["docs/a.md"]
    assert sorted((path, exclusion.kind) for path, exclusion in result.excluded) == [
        ("README.md", "never built"), ("docs/b.mdx", "never built")]


_MACROS_SITE = ("site_name: A\nplugins:\n  - search\n  - macros{options}\nextra:\n  flag: true\n  level: 2\n"
                "  env: !ENV [UNSET_VARIABLE, true]\n  sub:\n    word: shown-sub-word\n")
_MACROS_PAGE = """---
pageflag: false
---
# Page

shown-start {# hidden-comment #} {#- hidden-trimmed -#}
{% if level == 2 %}shown-eq{% else %}hidden-eq-else{% endif %}
{% if pageflag %}hidden-pageflag{% endif %}{% if flag and pageflag %}hidden-and{% endif %}
{% if env %}lost-env{% endif %}{% if nothere %}hidden-undefined{% endif %}
{{ sub.word }} {{ extra.sub.word }}
{% for i in [1, 2] %}lost-loop{% endfor %}{% raw %}{# shown-raw #}{% endraw %}
{% macro m() %}hidden-macro-body{% endmacro %}{% with a = 1 %}shown-with{% endwith %}
{% set other = 3 %}{% if other == 3 %}lost-set{% endif %}
shown-end
"""


@pytest.mark.parametrize("options, page, shown, hidden", [
    ("", _MACROS_PAGE, "shown-start shown-eq shown-sub-word shown-sub-word {# shown-raw #} shown-with shown-end",
     "hidden-"),
    ("", "---\nrender_macros: false\n---\n# A\n\n{# shown-unrendered #}\n", "{# shown-unrendered #}", "hidden-"),
    (":\n      render_by_default: false\n      j2_comment_start_string: '<%#'\n      j2_comment_end_string: '#%>'",
     "---\nrender_macros: true\n---\n# A\n\n{# shown-curly #} <%# hidden-custom #%> shown-after\n",
     "{# shown-curly #} shown-after", "hidden-"),
    (":\n      render_by_default: false", "# A\n\n{# shown-not-rendered #}\n", "{# shown-not-rendered #}", "hidden-"),
    (":\n      j2_extensions: [jinja2.ext.do]", "# A\n\n{% do [].append(1) %}shown-do {# hidden-c #}\n", "shown-do",
     "hidden-"),
    ("", "# A\n\nfailing-line {% if %}\n", None, "failing-line"),  # the site shows the plugin's error
    # A page extending a template shows only its blocks, where that template puts them.
    ("", '{% extends "base.md" %}\nhidden-outside-blocks\n{% block a %}block{% endblock %}\n', None, "hidden-"),
])
def test_mkdocs_macros_pages_show_what_the_plugin_renders(options: str, page: str, shown: str | None,
                                                          hidden: str) -> None:
    """mkdocs-macros-plugin renders each page as a Jinja2 template before Python-Markdown reads it.
    Checked with `mkdocs build` 1.6.1 and mkdocs-macros-plugin 1.5.0 (UNSET_VARIABLE unset):
    comments and false branches show nothing (docschat indexed them), `{% raw %}` shows its text,
    `render_macros: false` or `render_by_default: false` leave the page as written, a syntax error
    shows an error message (and the failing line) instead of the page: not indexed. What docschat
    cannot decide without running the site's Python or reading its environment (loops, a name the
    page assigns, `!ENV`: `lost-`) shows nothing."""
    files = {"mkdocs.yml": _MACROS_SITE.format(options=options), "docs/a.md": page}
    result = _compose(files)
    indexed = " ".join(chunk.text for chunk in result.chunks)
    assert hidden not in indexed and "lost-" not in indexed
    if shown is None:
        assert result.skipped_pages == ["docs/a.md"] and "MacrosError" in result.warnings[-1]
    else:
        assert " ".join(indexed.split()).endswith(shown), indexed


def test_mkdocs_front_matter_may_end_with_dots() -> None:
    """MkDocs reads YAML front matter closed by `...` (mkdocs.utils.meta, checked with `mkdocs build`
    1.6.1: the page shows its body only); docschat found it never closed and skipped the page."""
    files = {"mkdocs.yml": "site_name: A\n", "docs/a.md": "---\ntitle: Home\naudience: public\n...\n\n# Home\n\nShown.\n"}
    result = _compose(files)
    assert [page.title for page in result.pages] == ["Home"] and "Shown." in result.pages[0].body
    assert "audience" not in result.pages[0].body and result.pages[0].declared


def test_a_fence_with_pygments_options_is_read_as_code() -> None:
    """`hl_lines`, `linenums`, `title` are Pygments' options; rendered without Pygments,
    pymdownx.superfences took them for attributes and refused the fence (its text a paragraph,
    backticks and all), where the site shows code (Typer's `{* … hl[3] *}` examples write them)."""
    files = {"mkdocs.yml": "site_name: A\nmarkdown_extensions:\n  - pymdownx.superfences\n",
             "docs/a.md": '# A\n\n```python hl_lines="2" linenums="1" title="a.py"\none = 1\ntwo = 2\n```\n'}
    text = _indexed(files)
    assert "```python\none = 1\ntwo = 2\n```" in text and "hl_lines" not in text
