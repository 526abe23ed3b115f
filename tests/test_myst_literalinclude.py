"""MyST's `{literalinclude}` shows a file of the repository as Sphinx's LiteralIncludeReader cuts it
(app/corpus/myst_literalinclude.py); docschat showed nothing of it.

tests/data/myst-literalinclude is a repository whose docs/ folder is a Sphinx site, its pages'
literalincludes naming files inside and outside it with Sphinx's options, recorded by
scripts/record_myst_literalinclude.py (sphinx-build 9.0.4, myst-parser 5.2.0): each code block's
innerText and caption."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files
from app.corpus.myst_include import MAX_INCLUDES
from app.corpus.myst_literalinclude import NotShown, line_numbers, literal_text, python_objects
from app.corpus.sources import Source
from tests.helpers import commit_all, git

SITE = Path(__file__).parent / "data" / "myst-literalinclude"
RECORDED = json.loads((SITE.parent / "myst-literalinclude.shown.json").read_text(encoding="utf-8"))["pages"]


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(SITE, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return repo


def _code_blocks(blocks: tuple, fence: str = "```") -> list[dict[str, str | None]]:
    """The page's code blocks as the recording holds them: the text between the fences (with the
    line break `<pre>`'s innerText ends with), and the paragraph just above as its caption."""
    found: list[dict[str, str | None]] = []
    for index, block in enumerate(blocks):
        if block.kind != "code":
            continue
        body = block.text.split("\n", 1)[1].removesuffix(fence)
        above = blocks[index - 1] if index else None
        caption = above.text if above is not None and above.kind == "text" and not above.text.endswith(":") else None
        found.append({"caption": caption, "text": body})
    return found


@pytest.mark.parametrize("folder", ["docs", ""])  # the site's folder, or the repository with the site in docs/
def test_a_literalinclude_shows_what_sphinx_shows(folder: str, tmp_path: Path) -> None:
    """Whole files, `lines`, `start-after`/`end-before`, `start-at`/`end-at` (end-before never at
    the first line: nothing shown), `pyobject` (a decorated method from its decorator, a function
    without its trailing comments, a one-liner), `dedent` bare and numbered, `prepend`/`append`,
    a caption and an empty one (the file's name), `tab-width`, a `/` path from the site's folder, a
    literalinclude in an included file (relative to the page), and four that show nothing."""
    result = compose_corpus(Source(name="s", repo=_repository(tmp_path), dir=folder, audiences=("public",)), Settings())
    prefix = "docs/" if not folder else ""
    assert sorted(page.path for page in result.pages) == [prefix + "guide/usage.md", prefix + "index.md"]
    for page in result.pages:
        assert _code_blocks(page.blocks) == RECORDED[f"docs/{page.path.removeprefix(prefix)}"], page.path
    assert not [warning for warning in result.warnings if "include" in warning], result.warnings


def test_a_literalinclude_never_reads_out_of_the_repository_and_is_bounded() -> None:
    """Read as `{include}`'s files are: a path past the repository is not read (a warning names
    it); a page reads at most MAX_INCLUDES files."""
    conf = "extensions = ['myst_parser']\n"
    many = "".join("```{literalinclude} a.py\n```\n\n" for _ in range(MAX_INCLUDES + 2))
    files = {"conf.py": conf, "index.md": "# A\n\n```{literalinclude} ../../x.py\n```\n\n" + many, "a.py": "A_LINE = 1\n"}
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",)))
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert text.count("A_LINE = 1") == MAX_INCLUDES
    assert any("../../x.py (an {include} or {literalinclude}) leads out of the repository" in w for w in result.warnings), result.warnings
    assert any("{literalinclude} a.py not pasted, nor any after it" in w for w in result.warnings), result.warnings


def test_sphinx_s_filters_in_its_order() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 11))
    # `lines` counts within what start-after/end-before left (Sphinx filters them first).
    assert literal_text(text, {"start-after": "line 2", "lines": "1-2"}) == "line 3\nline 4\n"
    assert literal_text(text, {"lines": "-2,9-"}) == "line 1\nline 2\nline 9\nline 10\n"
    assert literal_text("    a\n\n      b\n", {"dedent": ""}) == "a\n\n  b\n"
    assert literal_text("    a\n  \n", {"dedent": "4"}) == "a\n\n"
    for refused in ({"start-after": "x", "start-at": "y"}, {"lines": "3-1"}, {"lines": "a"}, {"lines": "20-"},
                    {"diff": "b.py"}, {"end-at": "nowhere"}, {"dedent": "-1"}):
        with pytest.raises(NotShown):
            literal_text(text, refused)
    assert line_numbers("2-", 4) == [1, 2, 3]


def test_python_objects_as_sphinx_s_definition_finder() -> None:
    code = ("import x\n\n@decorator\nclass A:\n    def f(self):\n        def inner():\n            pass\n"
            "        return inner\n\n    # a comment at the end\n\nif x:\n    def g(): return 1\n")
    assert python_objects(code) == {"A": (3, 8), "A.f": (5, 8), "g": (13, 13)}
    with pytest.raises(NotShown):
        python_objects("def (:\n")
