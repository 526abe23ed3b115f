"""Compose: git source, front matter, snippets, MDX cleanup, chunking, the CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from app.config import Settings
from app.corpus.chunker import Page, chunk_page, github_slug
from app.corpus.compose import DocsSource, compose_corpus, compose_files
from app.corpus.markdown import read_page
from app.corpus.sources import Source
from app.search.chunk_text import chunk_blocks
from tests.conftest import SHARED
from tests.helpers import (
    commit_all,
    copy_tree_as_repo,
    docschat_in_process,
    make_docs_repo,
    shown_markdown,
    write_files,
)


def clean_mdx(text: str, *, myst: bool = False) -> str:
    """What an `.mdx` page (a MyST `.md` one with `myst`) shows, as the index keeps it."""
    return shown_markdown(text, mdx=not myst, myst=True if myst else None)


def compose(files: dict[str, str], **overrides):
    return compose_files(files, Settings(**overrides))


def test_reads_the_branch_not_the_working_tree(tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", {"a.mdx": "---\ntitle: A\npublic: true\n---\nCommitted text.\n"})
    (repo / "docs" / "a.mdx").write_text("---\ntitle: A\n---\nUncommitted edit.\n")
    (repo / "docs" / "b.mdx").write_text("---\ntitle: B\n---\nUntracked page.\n")
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    assert [p.path for p in result.pages] == ["a.mdx"]
    assert "Committed text." in result.chunks[0].text


def test_missing_branch_is_a_clear_error(tmp_path: Path) -> None:
    from app.errors import DocschatError

    repo = make_docs_repo(tmp_path / "r", {"a.md": "x\n"})
    with pytest.raises(DocschatError, match="nope"):
        compose_corpus(DocsSource(repo, "nope", "docs"), Settings())


def test_front_matter_public_fails_closed_and_broken_front_matter_is_skipped() -> None:
    result = compose(
        {
            "open.mdx": "---\ntitle: Open\npublic: true\n---\nText\n",
            "closed.mdx": "---\ntitle: Closed\n---\nText\n",
            "broken.mdx": "---\ntitle: [unclosed\npublic: true\n---\nText\n",
        }
    )
    public = {p.path: p.public for p in result.pages}
    assert public == {"open.mdx": True, "closed.mdx": False}
    assert any(re.match(r"broken.mdx:[23]: invalid YAML", w) for w in result.warnings), result.warnings
    assert all("title:" not in c.text for c in result.chunks)


def test_excludes_snippets_and_configured_folders() -> None:
    result = compose(
        {
            "guide.mdx": "---\ntitle: G\n---\nx\n",
            "snippets/s.mdx": "snippet\n",
            "_snippets/t.mdx": "snippet\n",
            "archive/old.mdx": "old\n",
            "README.md": "readme\n",
            "img.png": "binary",
        }
    )
    assert [p.path for p in result.pages] == ["guide.mdx"]


def test_snippets_paste_recursively_with_props_and_relative_paths() -> None:
    result = compose(
        {
            "guides/page.mdx": (
                '---\ntitle: Page\n---\nimport Outer from "/snippets/outer.mdx";\n'
                'import Local from "./local.mdx"\n\nBefore.\n\n<Outer name="Ada" />\n\n<Local />\n'
                "```mdx\n<Outer />\n```\n"
            ),
            "guides/local.mdx": "Local snippet text.\n",
            "snippets/outer.mdx": '---\ntitle: x\n---\nimport Inner from "/snippets/inner.mdx"\n\nHello {name}.\n<Inner/>\n',
            "snippets/inner.mdx": "Inner text.\n",
        }
    )
    text = "\n".join(c.text for c in result.chunks if c.page == "guides/page.mdx")
    assert "Hello Ada." in text and "Inner text." in text and "Local snippet text." in text
    assert "<Outer />" in text  # inside a code fence: an example, kept verbatim
    assert "import" not in text.replace("<Outer />", "")
    assert result.snippets_resolved == 3
    assert result.warnings == []


def test_snippet_cycle_and_missing_snippet_warn_but_index_the_page() -> None:
    result = compose(
        {
            "p.mdx": 'import A from "/snippets/a.mdx"\nimport M from "/snippets/missing.mdx"\n\nText.\n<A />\n<M />\n',
            "snippets/a.mdx": 'import B from "/snippets/b.mdx"\n\nA text\n<B />\n',
            "snippets/b.mdx": 'import A from "/snippets/a.mdx"\n\nB text\n<A />\n',
        }
    )
    assert [p.path for p in result.pages] == ["p.mdx"]
    assert any("cycle" in w and "snippets/a.mdx" in w for w in result.warnings)
    assert any("missing.mdx" in w and w.startswith("p.mdx") for w in result.warnings)
    assert result.snippets_unresolved == 1 and result.summary()["snippets_unresolved"] == 1
    text = result.chunks[0].text
    assert "A text" in text and "B text" in text and "<M" not in text


def test_mdx_cleanup_keeps_text_children_and_titles() -> None:
    cleaned = clean_mdx(
        "export const meta = {\n  a: 1,\n}\n\n{/* hidden */}\n"  # ESM runs to a blank line in MDX
        '<Note>Keep me</Note>\n<Steps>\n<Step title="Install">\nRun it.\n</Step>\n</Steps>\n'
        "```python title=\"x.py\"\nimport os\n<Note>code</Note>\n```\n"
    )
    assert "hidden" not in cleaned and "export" not in cleaned and "meta" not in cleaned
    # MDX refuses an HTML comment: the site's build fails on the page, so it is not indexed, and
    # compose says why in the parser's words.
    assert clean_mdx("<!-- hidden too -->\nText.\n") == ""
    refused = compose({"c.mdx": "---\ntitle: C\n---\n<!-- hidden -->\nText.\n"})
    assert refused.skipped_pages == ["c.mdx"] and not refused.chunks
    assert "to create a comment in MDX, use `{/* text */}`" in refused.warnings[0], refused.warnings
    assert "Keep me" in cleaned and "Install" in cleaned and "Run it." in cleaned
    assert "<Step" not in cleaned.split("```")[0]
    # The fence's info string past its language is never shown (title="x.py" is Mintlify's tab).
    assert '```python\nimport os\n<Note>code</Note>\n```' in cleaned
    # A bracket inside a string is no bracket: `":-("` swallowed the rest of the page. An export
    # whose brackets never balance loses its first line only; one that does runs over blank lines.
    assert clean_mdx('export const face = ":-(";\n\n## Kept\n\ntext\n') == "## Kept\n\ntext\n"
    assert clean_mdx("export const x = f(\n\n## Kept too\n").strip() == ""  # MDX refuses the page
    assert clean_mdx("export const C = () => {\n  const a = 1\n\n  return a\n}\n\n## After\n").strip() == "## After"
    # In MDX an element alone on its line ends a paragraph, and a fence indented past four
    # columns is still a fence (MDX has no indented code): its `#` lines start no section.
    steps = clean_mdx('<Steps>\n  <Step title="Run">\n    Run it:\n        ```python\n        # a comment\n'
                      "        ```\n    </Step>\n</Steps>\n")
    assert steps == "Run\n\nRun it:\n\n```python\n# a comment\n```\n"
    # Inline code shows tags as text, across a line break too (a space there, as CommonMark
    # renders it); a lone backtick opens no code.
    assert clean_mdx("Use `<Step\ntitle>` here, a `lone tick and <Note>x</Note>\n") == (
        "Use `<Step title>` here, a `lone tick and x\n")


def test_an_inline_jsx_element_keeps_the_words_around_it_apart() -> None:
    """An MDX element inside a paragraph was written as nothing, so the words on either side were
    indexed as one ("documentation<br />Configure" as "documentationConfigure", table cells as
    "$10Build Tier 1$50", a tab's title run into its text): a phrase of the page was then no phrase
    of the index. A line's tag breaks the line, any other element (a cell, a component) parts the
    words with a space; an element shown inside the line (`<strong>`, `<span>`) parts nothing."""
    # Two line breaks: an empty line between, as the browser shows it.
    assert clean_mdx("<label>Customize the docs<br /><br />Configure it</label>\n") == "Customize the docs\n\nConfigure it\n"
    assert clean_mdx("<table><tr><td>$10</td><td>Build Tier 1</td><td>N/A</td><td>$50</td></tr></table>\n") == (
        "| $10 | Build Tier 1 | N/A | $50 |\n|---|---|---|---|\n")
    assert clean_mdx('<Tabs><Tab title="Python">pip</Tab><Tab title="TypeScript">npm</Tab></Tabs>\n') == (
        "Python pip TypeScript npm\n")
    # No space before a closing mark, no line break doubled, none inside a word.
    assert clean_mdx('the <Tooltip tip="t">repository</Tooltip>. Next\n') == "the repository. Next\n"
    assert clean_mdx("This line ends here.<br />\nThis starts a new one.\n") == "This line ends here.\nThis starts a new one.\n"
    assert clean_mdx("a <strong>b</strong>c <span>d</span>e <>f</>g\n") == "a **b**c de fg\n"  # emphasis stays Markdown
    # A heading stays one line: its anchor is made from it.
    chunks = chunk_page(Page("h.mdx", "H", None, ("public",), "## Limits<br/>per tier <Badge>beta</Badge>\n\nText.\n"),
                        url_prefix="")
    assert [(c.heading, c.href) for c in chunks] == [("Limits per tier beta", "/h#limits-per-tier-beta")]


def test_myst_directives_and_roles_become_what_the_reader_sees() -> None:
    """Sphinx/MyST pages: a literalinclude (a file the index never has) left only its options in
    the text, an admonition's prose was indexed as code, and roles showed their markup."""
    page = (
        "Overview with a {ref}`runtime environment <runtime-environments>` and {py:class}`~ray.data.Dataset`.\n\n"
        "```{toctree}\n:hidden:\n\nother-page\n```\n\n"
        "## \"SPREAD\"\n\n`\"SPREAD\"` will try to spread the actors among nodes.\n\n"
        "```{literalinclude} ../doc_code/scheduling.py\n:language: python\n:start-after: __spread_start__\n```\n\n"
        "````{note}\n:class: small\nA note, with code:\n```python\nx = 1\n```\n````\n\n"
        "```{code-block} python\n:emphasize-lines: 1\nimport ray\n```\n\n"
        "```{dropdown} Click to see\n:open:\nHidden detail.\n```\n\n"
        ":::{tip}\n:class: dropdown\nA tip.\n:::\n\n"
        "Paths like `/users/{id}` and `{1-4}` in inline code stay.\n"
    )
    cleaned = clean_mdx(page, myst=True)
    for markup in (":language:", ":start-after:", "literalinclude", ":hidden:", "toctree", "other-page", ":class:",
                   ":emphasize-lines:", ":open:", "{note}", "{ref}", "{py:class}", "<runtime-environments>"):
        assert markup not in cleaned, markup
    # `~`: the last name, as Sphinx shows it on MyST pages too (site-nav/rst guide/notes.md, recorded)
    assert "Overview with a runtime environment and `Dataset`." in cleaned
    assert "A note, with code:\n\n```python\nx = 1\n```" in cleaned  # prose now, its fence kept
    assert "```python\nimport ray\n```" in cleaned  # a code directive stays code, in its language
    assert "Click to see\n\nHidden detail." in cleaned
    assert ":::{tip}\nA tip.\n:::" in cleaned  # a colon fence stays whole for the chunker
    assert "`/users/{id}` and `{1-4}` in inline code stay." in cleaned
    spread = next(c for c in chunk_page(Page("s.md", "Scheduling", None, ("public",), page), url_prefix="")
                  if c.heading == '"SPREAD"')
    # Nothing stands between its sentence and the note any more: the include left no trace.
    assert spread.text.startswith('## "SPREAD"\n\n`"SPREAD"` will try to spread the actors among nodes.\n\nA note')
    # A page whose opening was only a table of contents has no overview chunk.
    toc_only = "```{toctree}\n:hidden:\n\nquick-start\n```\n\n## First\nText.\n"
    assert [c.href for c in chunk_page(Page("k.md", "K", None, ("public",), toc_only), url_prefix="")] == ["/k#first"]
    # Ordinary Markdown keeps its braces: code wrapped across lines, TeX, a Quarto diagram. (A
    # `{name}` right before a code span is a role, as mdit-py-plugins' myst_role reads it.)
    for plain in ("Call `GET https://api.example.com/users/{id}` and check.\n\nThen `make`.\n",
                  "$\\textbf{bold}$ `code`\n", "```{mermaid}\ngraph TD\n```\n"):
        assert clean_mdx(plain, myst=True).replace("```mermaid", "```{mermaid}") == plain
    assert "serve_requests" in clean_mdx("```{eval-rst}\n.. list-table::\n   * - serve_requests\n```\n", myst=True)
    assert clean_mdx("```{note} The note's own first line.\n```\n", myst=True) == "The note's own first line.\n"
    # A directive left open runs to the page's end: its headings stay sections (a converted
    # notebook's unclosed `:::{note}` swallowed the page's last section).
    unclosed = "## One\n\n:::{note}\nA note.\n\n## Two\nText.\n"
    unclosed_page = Page("n.md", "N", None, ("public",), unclosed)
    assert [c.href for c in chunk_page(unclosed_page, url_prefix="")] == ["/n#one", "/n#two"]
    # Sections start at `#` headings only, as documented: an underlined heading stays in its section.
    setext = "## One\nIntro.\n\nMore examples:\n---\nExample.\n"
    assert [c.href for c in chunk_page(Page("e.md", "E", None, ("public",), setext), url_prefix="")] == ["/e#one"]
    assert "More examples:" in clean_mdx(setext, myst=True) and "---" not in clean_mdx(setext, myst=True)
    # The setext rule runs only on pages with an underline it alone reads (`=`, `-`, `--`): each is hidden.
    for underline in ("=====", "  =", "-", "--"):
        assert clean_mdx(f"Intro.\n\nTitle\n{underline}\nText.\n", myst=True) == "Intro.\n\nTitle\n\nText.\n"
    # A heading inside a directive is a title, as MyST shows it: no section, no anchor of its own.
    nested = "## Install\nIntro.\n\n````{dropdown} More\n## Install\nFlags.\n````\n\n## Install\nTwo.\n"
    nested_page = Page("i.md", "I", None, ("public",), nested)
    assert [c.href for c in chunk_page(nested_page, url_prefix="")] == ["/i#install", "/i#install-1"]
    tabs = clean_mdx("````{tab-set}\n```{tab-item} Python\nPython text\n```\n```{tab-item} Java\nJava text\n```\n````\n", myst=True)
    assert tabs == "Python\n\nPython text\n\nJava\n\nJava text\n"  # titles apart from the tab before
    # A hostile page of thousands of nested directives is cleaned, not a RecursionError: past
    # eight levels a directive shows nothing (no docs page nests that deep).
    assert clean_mdx("```{note}\n" * 5000 + "the end\n", myst=True) == ""
    assert clean_mdx("```{note}\n" * 8 + "the end\n", myst=True) == "the end\n"
    # Quarto's executable fences are code, not directives to unwrap.
    assert clean_mdx("```{python}\nprint(1)\n```\n", myst=True) == "```python\nprint(1)\n```\n"


def test_text_the_page_shows_as_text_starts_no_section_and_loose_lists_split_between_items() -> None:
    """Scraped code wrapped in a paragraph (`# Authenticate …` on its own line) was written back at a
    line's start and taken for a heading: 57 sections claude-docs does not have. A loose list was
    one block, so a long one moved whole to the next part."""
    wrapped = "## Auth\nclient = Client(\n    # Authenticate with a key\n    ```\n)\n"
    chunks = chunk_page(Page("w.md", "W", None, ("public",), wrapped), url_prefix="")
    assert [c.href for c in chunks] == ["/w#auth"] and "# Authenticate with a key" in chunks[0].text
    # The page view renders chunk text as Markdown: the shown `#` line is escaped, no heading there.
    assert "\\# Authenticate with a key" in chunks[0].text
    # A paragraph's lines come out as the parser gives them: CommonMark strips each line's
    # indentation (micromark, markdown-it-py). A hard break is one line break.
    for text in ("Line one  \n    line two\t\n\tthree\n", "Line `one`  \n    line two\t\n\tthree\n"):
        for myst in (False, True):
            assert clean_mdx(text, myst=myst).replace("`", "") == "Line one\nline two\nthree\n"
    items = "".join(f"- Item {n}: " + "word " * 60 + "\n\n" for n in range(4))
    parts = chunk_page(Page("l.md", "L", None, ("public",), "## List\n\nIntro.\n\n" + items),
                       url_prefix="", max_chars=800)
    assert len(parts) == 2 and parts[0].text.count("- Item") == 2 and parts[1].text.startswith("- Item 2")


def test_a_part_never_ends_on_a_title_its_body_starts_the_next() -> None:
    """Ray's placement strategies are bold titles over their text: "**STRICT_PACK**" ended one part
    and "All bundles must be placed into a single node" began the next, so no part said which
    strategy fails when the bundles do not fit (eval ray-12)."""
    intro = "\n\n".join("Ray supports several placement group strategies, each a trade-off. " * 3 for _ in range(3))
    body = "All bundles must be placed into a single node. " * 4
    page = f"## Placement Strategy\n\n{intro}\n\n**STRICT_PACK**\n\n{body}\n"
    parts = chunk_page(Page("p.md", "P", None, ("public",), page), url_prefix="", max_chars=800)
    assert len(parts) == 2, [p.text for p in parts]
    assert parts[1].text.startswith("**STRICT_PACK**\n\nAll bundles"), parts[1].text
    assert not parts[0].text.rstrip().endswith("**STRICT_PACK**")
    # A sentence is no title: it stays where packing put it.
    sentence = page.replace("**STRICT_PACK**", "Strict packing is described below.")
    parts = chunk_page(Page("p.md", "P", None, ("public",), sentence), url_prefix="", max_chars=800)
    assert parts[0].text.rstrip().endswith("Strict packing is described below."), parts[0].text


def test_no_part_is_a_code_title_alone_it_joins_the_long_block_after_it() -> None:
    """A stranger's Mintlify site (mem0) had 40 parts that were only a code block's title
    (`TypeScript`): the block after it was longer than a part, so the title was left alone, a
    search result with nothing in it. A section's heading alone stays a part (design/judgment.md)."""
    code = "```python\n" + "\n".join(f"value_{n} = {n}" for n in range(60)) + "\n```"
    ts = code.replace("python", "typescript")
    page = f"### Usage\n\nPython\n\n{code}\n\nTypeScript\n\n{ts}\n"
    parts = chunk_page(Page("p.md", "P", None, ("public",), page), url_prefix="", max_chars=800)
    assert [p.text.split("\n")[0] for p in parts] == ["### Usage", "Python", "TypeScript"], [p.text[:40] for p in parts]
    assert parts[1].text == f"Python\n\n{code}" and parts[2].text == f"TypeScript\n\n{ts}"


def test_a_block_too_long_for_one_chunk_is_cut_at_line_ends_each_piece_still_fenced() -> None:
    from app.corpus.chunker import cut_block

    code = "```python\n" + "\n".join(f"value_{n} = {n}" for n in range(400)) + "\n```"
    pieces = cut_block(code, limit=2_000)
    assert len(pieces) > 2 and all(len(p) <= 2_000 for p in pieces)
    assert all(p.startswith("```python\n") and p.endswith("\n```") for p in pieces)
    assert [line for p in pieces for line in p.split("\n")[1:-1]] == code.split("\n")[1:-1]
    prose = " ".join(["word"] * 1_000)  # one line: cut at spaces
    assert " ".join(cut_block(prose, limit=500)) == prose
    assert cut_block("short", limit=500) == ["short"]
    hostile = cut_block("```" + "a" * 3_000 + "\ncode\n```", limit=2_000)  # looped forever
    assert all(len(p) <= 2_000 for p in hostile) and "".join(hostile).count("a") == 3_000


def test_chunks_headings_anchors_and_hrefs() -> None:
    body = (
        "Intro.\n\n## Install {#setup}\nA\n\n```sh\n## not a heading\n```\n\n### Sub part\nB\n\n"
        "#### Deep\nC\n\n## Install\nD\n\n## Install\nE\n"
    )
    chunks = chunk_page(Page("guides/index.mdx", "Guide", "About guides.", ("public",), body), url_prefix="/docs")
    assert [c.href for c in chunks] == [
        "/docs/guides",
        "/docs/guides#setup",
        "/docs/guides#sub-part",
        "/docs/guides#install",
        "/docs/guides#install-1",
    ]
    assert chunks[0].text.startswith("About guides.") and "Intro." in chunks[0].text
    assert chunks[2].breadcrumb == "Guide › Install › Sub part"
    assert "#### Deep" in chunks[2].text and "## not a heading" in chunks[1].text
    assert chunks[1].text.startswith("## Install\n") and "{#setup}" not in chunks[1].text
    # The breadcrumb starts with the page title: the embedded text says the title once.
    assert chunks[1].embed_text == f"Guide › Install\n\n{chunks[1].text}"
    no_prefix = chunk_page(Page("a/b.md", "B", None, (), "## X\ny\n"), url_prefix="")
    assert no_prefix[0].href == "/a/b#x"
    # A heading of punctuation or emoji has no anchor on GitHub: its link is the page, not a
    # "#section" the site does not have; a second one is "-1", as GitHub numbers it.
    marks = chunk_page(Page("a/c.md", "C", None, (), "## ???\ny\n\n## 🚀\nz\n\n## Section\nw\n"), url_prefix="")
    assert [c.href for c in marks] == ["/a/c", "/a/c#-1", "/a/c#section"]
    assert len({c.id for c in marks}) == 3
    # A section is named by the heading's shown text (the page reader's), not by its Markdown read
    # again: a `_` or `*` in code or text is shown, and GitHub keeps it in the anchor.
    shown = chunk_page(Page("a/d.md", "D", None, (), "## The `__init__` method\nx\n\n## *Use* `a*b` and [c](/c)\ny\n"), url_prefix="")
    assert [(c.heading, c.href) for c in shown] == [("The __init__ method", "/a/d#the-__init__-method"),
                                                    ("Use a*b and c", "/a/d#use-ab-and-c")]
    assert shown[1].text.startswith("## *Use* `a*b` and [c](/c)\n")  # the section's text keeps its Markdown


@pytest.mark.parametrize(
    ("heading", "slug"),
    [("Hello World", "hello-world"), ("What's `new`?", "whats-new"), ("A & B", "a--b"), ("Über café", "über-café")],
)
def test_github_slugs(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_long_sections_split_at_paragraphs_never_inside_code() -> None:
    code = "```python\n" + "\n".join(f"line_{i} = {i}" for i in range(200)) + "\n```"
    paragraphs = "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(12))
    body = f"## Long\n{paragraphs}\n\n{code}\n\nAfter.\n"
    chunks = chunk_page(Page("p.md", "P", None, ("public",), body), max_chars=600)
    sections = [c for c in chunks if c.heading == "Long"]
    assert len(sections) > 3
    assert len({c.id for c in chunks}) == len(chunks)
    for chunk in sections:
        assert chunk.text.count("```") % 2 == 0
        assert len(chunk.text) <= 600 or chunk.text.startswith("```")
    assert any(c.text.startswith("```python") and len(c.text) > 600 for c in sections)


def test_callouts_are_never_cut_nor_split_by_a_heading_inside() -> None:
    callout = ":::note\n" + "\n\n".join(f"Callout paragraph {i} " + "word " * 30 for i in range(8)) + "\n:::"
    tabs = "::::{tab-set}\n:::{tab-item} Python\n## Not a section\nx = 1\n:::\n::::"
    body = f"## Long\n{'Intro ' * 40}\n\n{callout}\n\n{tabs}\n\nAfter.\n"
    chunks = chunk_page(Page("p.md", "P", None, ("public",), body), max_chars=400)
    assert [c.heading for c in chunks] == ["Long"] * len(chunks)  # the `##` inside the tab is text
    whole = [c for c in chunks if ":::note" in c.text]
    assert len(whole) == 1 and whole[0].text.startswith(":::note") and whole[0].text.rstrip().endswith(":::")
    assert all(c.text.count(":::") % 2 == 0 for c in chunks if ":::" in c.text)
    tab_chunk = next(c.text for c in chunks if ":::{tab-set}" in c.text)  # whole, its heading a title
    assert ":::{tab-set}\n:::{tab-item} Python\n**Not a section**\n\nx = 1\n:::\n:::" in tab_chunk
    # An unclosed callout is ordinary text: it does not swallow the rest of the section.
    long_note = ":::note\n" + "\n\n".join(["para " * 50] * 6)
    unclosed = chunk_page(Page("u.md", "U", None, ("public",), long_note), max_chars=400)
    assert len(unclosed) > 1
    # ... and the fences inside it stay code: a `##` line in them is no heading.
    fenced = chunk_page(Page("v.md", "V", None, ("public",), ":::note\nopen\n\n```python\n## inside code\n```\n"))
    assert [c.heading for c in fenced] == [""]


def test_h1_headings_split_a_page_but_the_title_heading_does_not() -> None:
    body = "# Guide\nIntro.\n\n# Part one\nA\n\n## Step\nB\n\n# Part two\nC\n"
    chunks = chunk_page(Page("g.md", "Guide", None, ("public",), body), url_prefix="")
    assert [(c.href, c.breadcrumb) for c in chunks] == [
        ("/g", "Guide"),
        ("/g#part-one", "Guide › Part one"),
        ("/g#step", "Guide › Part one › Step"),
        ("/g#part-two", "Guide › Part two"),
    ]
    assert "# Guide" in chunks[0].text


def test_a_page_without_overview_text_has_no_overview_chunk() -> None:
    chunks = chunk_page(Page("a.md", "A", None, ("public",), "## First\nText.\n"), url_prefix="")
    assert [c.href for c in chunks] == ["/a#first"]
    titled = chunk_page(Page("a.md", "A", None, ("public",), "# A\n\n## First\nText.\n"), url_prefix="")
    assert [c.href for c in titled] == ["/a#first"]  # a title heading alone is no overview
    described = chunk_page(Page("a.md", "A", "What A is.", ("public",), "## First\nText.\n"), url_prefix="")
    assert [c.href for c in described] == ["/a", "/a#first"] and described[0].text == "What A is."


# --- properties ----------------------------------------------------------------------------------

_words = st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=40).map(str.strip).filter(bool)
_line = st.one_of(
    _words,
    _words.map(lambda w: f"- {w}"),
    _words.map(lambda w: f"## {w}"),
    _words.map(lambda w: f"### {w}"),
    _words.map(lambda w: f"#### {w}"),
    st.just(""),
)
# A page as its blocks: ("prose", [line]) or ("code", lines). The test knows which line is code from
# how it built the page, not from the fence reader under test.
_block = st.one_of(
    _line.map(lambda line: ("prose", [line])),
    st.lists(st.one_of(_words, _words.map(lambda w: f"## {w}")), min_size=1, max_size=6).map(
        lambda lines: ("code", lines)),
)
_blocks = st.lists(st.one_of(_block.filter(lambda b: b[0] == "prose"), _block), min_size=1, max_size=40)


def _render(blocks: list[tuple[str, list[str]]]) -> str:
    return "\n".join(lines[0] if kind == "prose" else "```text\n" + "\n".join(lines) + "\n```"
                     for kind, lines in blocks)


def _lines_by_place(text: str) -> tuple[set[str], set[str], bool]:
    """A chunk's lines outside and inside a ``` fence, and whether every fence it opens is closed.
    The generated words hold no backtick, so a line starting with ``` is a fence line."""
    outside: set[str] = set()
    inside: set[str] = set()
    open_ = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            open_ = not open_
        elif line.strip():
            (inside if open_ else outside).add(line.strip())
    return outside, inside, not open_


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks=_blocks, max_chars=st.integers(min_value=200, max_value=800))
def test_property_no_body_line_lost_and_no_fence_cut(blocks: list[tuple[str, list[str]]], max_chars: int) -> None:
    body = _render(blocks)
    page = Page("p.mdx", "P", None, ("public",), clean_mdx(body), blocks=tuple(read_page(body, mdx=True).blocks))
    chunks = chunk_page(page, max_chars=max_chars)
    outside: set[str] = set()
    inside: set[str] = set()
    for chunk in chunks:
        chunk_outside, chunk_inside, closed = _lines_by_place(chunk.text)
        assert closed, chunk.text  # a code block cut between chunks leaves a fence open
        outside |= chunk_outside
        inside |= chunk_inside
    for kind, lines in blocks:
        for line in filter(str.strip, lines):  # kept, and still prose or still code
            assert line.strip() in (outside if kind == "prose" else inside), (kind, line)
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))
    assert ids == [c.id for c in chunk_page(page, max_chars=max_chars)]


# --- the CLI and a real corpus --------------------------------------------------------------------


def test_compose_cli_json(tmp_path: Path) -> None:
    repo = make_docs_repo(
        tmp_path / "r",
        {"a.mdx": "---\ntitle: A\npublic: true\n---\nIntro\n\n## One\ntext\n", "bad.mdx": "---\n: : :\n---\n",
         "internal.mdx": "---\ntitle: Internal\n---\nNotes.\n"},
    )
    result = docschat_in_process("compose", "--repo", str(repo), "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    chunks, summary = lines[:-1], lines[-1]["summary"]
    assert set(chunks[0]) == {
        "id", "source", "page", "title", "heading", "breadcrumb", "href", "audiences", "text", "embed_text",
        "content_hash", "place", "page_order", "section_order",
    }
    assert chunks[0]["place"] == []  # a site without navigation: no place
    # ...and no position in one (pages go by path); the sections in the page's order
    assert [(c["id"], c["page_order"], c["section_order"]) for c in chunks] == [
        ("docs:a.mdx", None, 0), ("docs:a.mdx#one", None, 1), ("docs:internal.mdx", None, 0)]
    assert summary["pages"] == 2 and summary["chunks"] == 3
    assert summary["warnings"] and "bad.mdx" in result.stderr
    assert "declare no audience" in result.stderr  # the sync's own warnings: compose is its first step


MINTLIFY = SHARED / "corpora" / "mintlify-docs"


@pytest.mark.skipif(not MINTLIFY.is_dir(), reason="../shared/corpora/mintlify-docs is not present")
def test_mintlify_corpus_has_no_imports_snippet_tags_or_front_matter(tmp_path: Path) -> None:
    repo = copy_tree_as_repo(MINTLIFY, tmp_path / "mint")
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    assert len(result.pages) > 200 and result.snippets_resolved > 10
    snippet_names = set()
    for path in MINTLIFY.rglob("*.mdx"):
        snippet_names |= set(re.findall(r'^import (\w+) from "/snippets/[^"]+\.mdx"', path.read_text(), re.M))
    assert snippet_names
    for chunk in result.chunks:
        for block in chunk_blocks(chunk.text):
            if block.kind == "code":
                continue
            for line in block.text.splitlines():
                assert not re.match(r"^\s*import\s.+\sfrom\s", line), (chunk.id, line)
                assert not re.match(r"^(title|description|keywords|public):\s", line), (chunk.id, line)
                assert not re.search(rf"<({'|'.join(snippet_names)})\b", line), (chunk.id, line)
    again = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    assert [c.id for c in again.chunks] == [c.id for c in result.chunks]
    assert len({c.id for c in result.chunks}) == len(result.chunks)


def test_new_commit_changes_only_what_changed(tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", {"a.mdx": "---\ntitle: A\n---\n## One\nx\n\n## Two\ny\n"})
    before = {c.id: c.content_hash for c in compose_corpus(DocsSource(repo, "main", "docs"), Settings()).chunks}
    write_files(repo / "docs", {"a.mdx": "---\ntitle: A\n---\n## One\nx\n\n## Two\nchanged\n"})
    commit_all(repo, "edit")
    after = {c.id: c.content_hash for c in compose_corpus(DocsSource(repo, "main", "docs"), Settings()).chunks}
    assert before.keys() == after.keys()
    assert [k for k in before if before[k] != after[k]] == ["docs:a.mdx#two"]


def test_hostile_pages_compose_in_bounded_time_and_memory(tmp_path: Path) -> None:
    """Pages from an adversarial review that hung compose for minutes (or took 18 GB): a YAML
    "billion laughs" title, snippets that each paste the next twice (2^30 pastes), a heading line
    of 5,000 spaces and tabs, one line of ever longer backtick runs; and a NUL spelled in YAML,
    which Postgres refused, failing the sync of every source. Run apart, so a hang fails the test."""
    lol = "---\na: &a [" + ",".join(["lol"] * 10) + "]\n" + "".join(
        f"{c}: &{c} [" + ",".join([f"*{p}"] * 10) + "]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ) + "title: *i\ndescription: *i\npublic: true\n---\nBody.\n"
    files = {f"snippets/e{i}.mdx": f"import N from '/snippets/e{i + 1}.mdx'\n\nword{i} <N /> <N />\n" for i in range(30)}
    files |= {
        "snippets/e30.mdx": "end\n",
        "lol.md": lol,
        "fan.mdx": "---\ntitle: Fan\npublic: true\n---\nimport E from '/snippets/e0.mdx'\n\n<E />\n",
        "ws.md": "---\ntitle: WS\npublic: true\n---\n## a" + " \t" * 2500 + "b\n\ntext\n",
        "ticks.md": "---\ntitle: Ticks\npublic: true\n---\n" + "".join("`" * i + "a" for i in range(1, 450)) + "\n",
        "nul.md": '---\ntitle: "a\\0b"\npublic: true\n---\nBody.\n',
        # Regexes that rescanned to the end from every start (a second review): each 100-200k long.
        "export.md": "---\npublic: true\n---\nexport const a = " + '"\\' * 100_000 + "\n\nAfter the export.\n",
        "links.md": "---\npublic: true\n---\n## " + "[x](" * 50_000 + "\n\n" + "[" * 100_000 + "\n",
        "comments.md": "---\npublic: true\n---\n" + "{/*" * 50_000 + "\n\n" + "<!--" * 50_000 + "\n",
        "roles.md": "---\npublic: true\n---\n{ref}`a" + " " * 200_000 + "x`\n\n:::{note} x" + " " * 200_000 + "y\n:::\n",
        "lines.md": "---\npublic: true\n---\n# x" + " " * 200_000 + "y\n\nimport a from 'x'" + " " * 200_000 + "y\n",
        "audience.md": lol.replace("title: *i\ndescription: *i\npublic: true", "title: Aud\naudience: *i"),
        "snippets/deep.mdx": "---\nx: " + "[" * 5_000 + "]" * 5_000 + "\n---\nDeep snippet text.\n",
        "uses-deep.mdx": "---\ntitle: Uses\npublic: true\n---\nimport D from '/snippets/deep.mdx'\n\nOwn text. <D />\n",
    }
    (tmp_path / "files.json").write_text(json.dumps(files))
    script = (
        "import json, sys; from app.config import Settings; from app.corpus.compose import compose_files\n"
        "r = compose_files(json.load(open(sys.argv[1])), Settings(docs_url_prefix=''))\n"
        "print(json.dumps({'titles': {p.path: p.title for p in r.pages}, 'warnings': r.warnings,"
        " 'audiences': {p.path: list(p.audiences) for p in r.pages},"
        " 'fan': sum(len(c.text) for c in r.chunks if c.page == 'fan.mdx'),"
        " 'headings': [c.heading for c in r.chunks if c.page == 'ws.md']}))"
    )
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path / "files.json")], capture_output=True,
                         text=True, timeout=60, cwd=Path(__file__).parent.parent)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert {k: v for k, v in out["titles"].items() if k in ("fan.mdx", "lol.md", "nul.md", "ticks.md", "ws.md")} == {
        "fan.mdx": "Fan", "lol.md": "Lol", "nul.md": "ab", "ticks.md": "Ticks", "ws.md": "WS"}
    assert {"export.md", "roles.md", "lines.md", "audience.md", "uses-deep.mdx"} <= set(out["titles"])
    # micromark is quadratic on some of them (50,000 `{/*`, 100,000 `[`): read within the page
    # reader's time limit, or not indexed, with a warning that says so.
    for page in ("links.md", "comments.md"):
        assert page in out["titles"] or any(w.startswith(f"{page}: ") and "time limit" in w for w in out["warnings"])
    assert out["audiences"]["audience.md"] == ["internal"] and out["audiences"]["uses-deep.mdx"] == ["public"]
    assert max(len(w) for w in out["warnings"]) < 2_000  # no warning writes out a billion laughs
    assert any("more than 500 snippets" in w for w in out["warnings"]) and 0 < out["fan"] < 100_000
    assert out["headings"][-1].startswith("a") and out["headings"][-1].endswith("b")


def test_pages_of_unopened_brackets_are_read_or_refused_in_bounded_time() -> None:
    """4 MB of `[` took 20 s of CPU with markdown-it; micromark is quadratic on it. A page is read
    within the page reader's time limit (2 s here) or refused with a message naming the limit (time,
    or memory: 4 MB of `[` may reach V8's limit first; a CI run once failed so), and
    the reader is usable after; run apart, so that a hang fails on the timeout. The MyST reader
    (markdown-it-py) reads them in linear time, in a process of its own under the default limit:
    after the runaway reads, V8's heap still held their garbage, and at load 11-13 (sessions 35
    and 36) a 4 MB MyST page read after them failed the check three times, in two suites and CI.
    The bound is on the process's CPU time, every thread's (V8's too), not on wall time, which a
    busy machine stretches."""
    pages = "pages = ('[' * 4_000_000, '[a' * 2_000_000, '![' * 2_000_000)\n"
    runaway = (
        "import time; from app.corpus import reader; from app.corpus.markdown import read_page\n"
        "from tests.helpers import shown_markdown\n"
        "reader.MAX_SECONDS = 2\n"
        "start = time.process_time()\n" + pages +
        "for page in pages:\n"
        "    for mdx in (False, True):\n"
        "        read = read_page(page, mdx=mdx)\n"
        "        assert read.error is None and '\\n\\n'.join(b.text for b in read.blocks) == page or 'time limit' in read.error or 'memory limit' in read.error, read.error\n"
        # The limit back to its default for the check that the reader is usable after: the first
        # call after a runaway one may collect its heap, past 2 s on a busy machine.
        "reader.MAX_SECONDS = 10\n"
        "assert shown_markdown('Still *reading*.', mdx=True) == 'Still *reading*.\\n'\n"
        "print(time.process_time() - start)"
    )
    myst = (
        "import time; from tests.helpers import shown_markdown\n"
        "start = time.process_time()\n" + pages +
        "for page in pages:\n"
        "    assert shown_markdown(page, mdx=False, myst=True) == page + '\\n'\n"
        "print(time.process_time() - start)"
    )
    for script in (runaway, myst):
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                             cwd=Path(__file__).parent.parent, check=False)
        assert run.returncode == 0, run.stderr[-2000:]
        assert float(run.stdout) < 60, run.stdout


def test_file_names_that_are_not_utf8_stay_apart(tmp_path: Path) -> None:
    """Both decoded to "\ufffd.md": one page silently replaced the other."""
    import os

    repo = make_docs_repo(tmp_path / "r", {"ok.md": "---\ntitle: Ok\npublic: true\n---\nText.\n"})
    for name in (b"\xfe.md", b"\xff.md"):
        with open(os.path.join(os.fsencode(repo / "docs"), name), "wb") as file:
            file.write(b"---\ntitle: Odd\npublic: true\n---\nOdd text.\n")
    commit_all(repo, "names that are not UTF-8")
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings(docs_url_prefix=""))
    assert sorted(p.path for p in result.pages) == ["\\xfe.md", "\\xff.md", "ok.md"]


def test_pages_saved_as_utf16_are_read_with_their_front_matter(tmp_path: Path) -> None:
    """Windows PowerShell's `>` writes UTF-16: read as UTF-8, every other character was a NUL, the
    front matter went unread (no title, no audience: the page fell to undeclared) and the text was
    garbled."""
    page = "---\ntitle: Déploiement\npublic: true\n---\n## Étape une\n\nLancez `ray start` — puis attendez.\n"
    repo = make_docs_repo(tmp_path / "r", {"ok.md": "---\ntitle: Ok\npublic: true\n---\nText.\n"})
    for name, data in (("le.md", b"\xff\xfe" + page.encode("utf-16-le")),
                       ("be.md", b"\xfe\xff" + page.encode("utf-16-be")),
                       ("bom8.md", b"\xef\xbb\xbf" + page.encode("utf-8"))):
        (repo / "docs" / name).write_bytes(data)
    commit_all(repo, "pages in other encodings")
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings(docs_url_prefix=""))
    pages = {p.path: p for p in result.pages}
    for name in ("le.md", "be.md", "bom8.md"):
        assert pages[name].title == "Déploiement"
        chunks = [c for c in result.chunks if c.page == name]
        assert [c.heading for c in chunks if c.heading] == ["Étape une"]
        assert all(c.audiences == ("public",) for c in chunks)
        assert any("Lancez `ray start` — puis attendez." in c.text for c in chunks)
        assert not any("\x00" in c.text or "\ufffd" in c.text for c in chunks)


def test_a_page_saved_as_utf16_without_a_byte_order_mark_keeps_its_declared_audience(tmp_path: Path) -> None:
    """Without a byte order mark a UTF-16 page was read as UTF-8: its front matter went unread, so a
    page declaring `audience: internal` took its source's default, public here, and anonymous users
    were shown it."""
    page = "---\ntitle: Runbook\naudience: internal\n---\n## Rotation\n\nThe on-call rotation starts at 09:00 — ルール.\n"
    repo = make_docs_repo(tmp_path / "r", {"ok.md": "---\ntitle: Ok\n---\nText.\n"})
    encodings = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
    for encoding in encodings:
        (repo / "docs" / f"{encoding}.md").write_bytes(page.encode(encoding))
    (repo / "docs" / "nul.md").write_bytes(b"---\ntitle: Nul\n---\nA stray \x00 byte in UTF-8 text.\n")
    # Too short, odd in length or too CJK to tell: read as UTF-8 with its NULs dropped, the front
    # matter's ASCII is still read.
    (repo / "docs" / "short.md").write_bytes(b"---\naudience: internal\n---\nToken 1.\x00\n")
    (repo / "docs" / "odd.md").write_bytes(page.encode("utf-16-le") + b"\n")
    (repo / "docs" / "cjk.md").write_bytes(("---\naudience: internal\n---\n" + "日本語の文書。" * 200).encode("utf-16-le"))
    commit_all(repo, "pages in other encodings, unmarked")
    source = Source(name="docs", repo=repo, dir="docs", url_prefix="", audiences=("public",))
    result = compose_corpus(source, Settings(docs_url_prefix=""))
    pages = {p.path: p for p in result.pages}
    for encoding in encodings:
        assert pages[f"{encoding}.md"].title == "Runbook", encoding
        assert pages[f"{encoding}.md"].audiences == ("internal",), encoding
        chunks = [c for c in result.chunks if c.page == f"{encoding}.md"]
        assert any("The on-call rotation starts at 09:00 — ルール." in c.text for c in chunks), encoding
    assert pages["ok.md"].audiences == ("public",)
    for name in ("short.md", "odd.md", "cjk.md"):
        assert pages[name].audiences == ("internal",), name
    # A stray NUL in a UTF-8 page does not make it UTF-16: it is dropped, the text kept.
    assert pages["nul.md"].title == "Nul"
    assert any("A stray  byte in UTF-8 text." in c.text for c in result.chunks if c.page == "nul.md")


def test_two_pages_published_at_one_route_keep_the_first_and_warn() -> None:
    """`sub.md` and `sub/index.md` are both served at /docs/sub: indexed both, one result linked to
    a page the reader cannot reach and the page view merged the two pages' sections."""
    files = {
        "guides/sub.md": "---\ntitle: Sub\npublic: true\n---\n## Install\n\nThe page the link shows.\n",
        "guides/sub/index.md": "---\ntitle: Sub index\npublic: true\n---\n## Install\n\nShadowed.\n",
        "guides/sub.mdx": "---\ntitle: Sub MDX\npublic: true\n---\nShadowed too.\n",
        "guides/sub/other.md": "---\ntitle: Other\npublic: true\n---\nA page of its own.\n",
    }
    result = compose_files(files, Settings(docs_url_prefix="/docs"))
    assert sorted(p.path for p in result.pages) == ["guides/sub.md", "guides/sub/other.md"]
    assert sorted({c.href.split("#")[0] for c in result.chunks}) == ["/docs/guides/sub", "/docs/guides/sub/other"]
    skipped = [w for w in result.warnings if "page skipped (rename one of them)" in w]
    assert len(skipped) == 2 and all("/docs/guides/sub," in w and "guides/sub.md" in w for w in skipped)
    # A page that cannot be read takes no route: the next one at that route is published.
    files["guides/sub.md"] = "---\ntitle: [broken\n---\nUnreadable.\n"
    result = compose_files(files, Settings(docs_url_prefix="/docs"))
    assert sorted(p.path for p in result.pages) == ["guides/sub.mdx", "guides/sub/other.md"]
    assert result.skipped_pages == ["guides/sub.md"]


def test_myst_blocks_sphinx_runs_but_never_shows_are_not_indexed() -> None:
    """Issue 46, class 7: `{testcode}`/`{doctest}`/`{testoutput}` with `:hide:`, `{testsetup}` and
    `{testcleanup}` (sphinx.ext.doctest), and cells tagged `remove-cell`/`remove-input` (MyST-NB)
    are run by the build and never shown; the ray corpus has them. The same blocks without the
    option are shown, as code."""
    page = (
        "Intro zzs1.\n\n```{testcode}\n:hide:\n\nimport zzh1\n```\n\n```{testsetup}\nimport zzh2\n```\n\n"
        "```{testcleanup}\nzzh3()\n```\n\n```{doctest}\n:hide:\n\n>>> zzh4\n```\n\n```{testoutput}\n:hide:\n\nzzh5\n```\n\n"
        "```{code-cell} python\n:tags: [remove-cell]\nzzh6 = 1\n```\n\n"
        "```{code-cell} python\n---\ntags: [hide-output, remove-input]\n---\nzzh7 = 1\n```\n\n"
        "```{testcode}\nimport zzs2\n```\n\n```{code-cell} python\n:tags: [hide-output]\nzzs3 = 1\n```\n\nEnd zzs4.\n"
    )
    shown = clean_mdx(page, myst=True)
    assert [m for m in re.findall(r"zzh\d", page) if m in shown] == []
    assert [m for m in ("zzs1", "zzs2", "zzs3", "zzs4") if m not in shown] == []
    assert "```testcode\nimport zzs2\n```" in shown


def test_a_mintlify_site_shows_field_names_labels_math_and_captions_but_not_agent_only_text() -> None:
    """Issue 46: a real Mintlify site lost its `ParamField`/`ResponseField` names, types, required
    flags and defaults, `Update` labels, `$$e^{2.5}$$` (it became `$$e^$$`) and image captions,
    and indexed `<Visibility for="agents">` text. With `docs.json` the site's pages are MDX with
    math, and each component shows what Mintlify shows of it."""
    page = (
        "---\ntitle: API\n---\n"
        '<ParamField path="project_id" type="string" required default="main">The project.</ParamField>\n\n'
        '<ResponseField name="status" type="number">The status.</ResponseField>\n\n'
        '<Update label="2024-10-12" description="v0.2.1">Faster builds.</Update>\n\n'
        "The growth is $$e^{2.5}$$ a year.\n\n"
        '<Frame caption="The dashboard">\n  <img src="/d.png" alt="Dashboard screenshot" />\n</Frame>\n\n'
        '<Visibility for="agents">Agents only: zzagent.</Visibility>\n\n<Visibility for="humans">For people.</Visibility>\n'
    )
    text = "\n".join(c.text for c in compose({"docs.json": "{}", "api.mdx": page}).chunks)
    for shown in ("project_id string required default: main", "The project.", "status number", "The status.",
                  "2024-10-12 v0.2.1", "Faster builds.", "$$e^{2.5}$$", "The dashboard", "Dashboard screenshot",
                  "For people."):
        assert shown in text, shown
    assert "zzagent" not in text and "/d.png" not in text


def test_a_link_component_is_a_link_and_no_unknown_component() -> None:
    """Mintlify's `<Link href>` and Docusaurus's `<Link to>` render an anchor. A real site (mem0's
    Mintlify docs, 45 uses) had them reported as unknown and their targets dropped."""
    page = ('---\ntitle: P\n---\nSee <Link href="/platform/graph">Graph Memory</Link> and '
            '<Link to="/docs/intro">the intro</Link>.\n')
    result = compose({"docs.json": "{}", "p.mdx": page})
    assert "See [Graph Memory](/platform/graph) and [the intro](/docs/intro)." in result.chunks[0].text
    assert result.unknown_components == []


def test_a_mintlify_column_is_known_and_shows_its_children() -> None:
    """`<Column>` is one of Mintlify's allowedComponents (@mintlify/common 1.0.1183's
    `dist/mdx/utils.js`), shown as its children. dify's docs (12 pages, 36 uses) had it reported as
    a component docschat has no rule for."""
    page = "---\ntitle: P\n---\n<Columns cols={2}>\n  <Column>\n\nLeft side.\n\n  </Column>\n  <Column>Right side.</Column>\n</Columns>\n"
    result = compose({"docs.json": "{}", "p.mdx": page})
    text = "\n".join(c.text for c in result.chunks)
    assert "Left side." in text and "Right side." in text
    assert result.unknown_components == []


def test_mintlifys_snippet_tag_is_pasted_and_a_missing_one_is_a_warning() -> None:
    """Issue 46: `<Snippet file="…"/>` (Mintlify's tag without an import) was dropped silently."""
    result = compose({"docs.json": "{}", "p.mdx": '---\ntitle: P\n---\nBefore.\n\n<Snippet file="plans.mdx" />\n\n'
                      '<Snippet file="gone.mdx" />\n\n```mdx\n<Snippet file="plans.mdx" />\n```\n',
                      "snippets/plans.mdx": "Plans start at $10.\n"})
    text = "\n".join(c.text for c in result.chunks)
    assert "Plans start at $10." in text and result.snippets_resolved == 1 and result.snippets_unresolved == 1
    assert '<Snippet file="plans.mdx" />' in text  # in code: an example, as written
    assert any("gone.mdx" in w and w.startswith("p.mdx") for w in result.warnings), result.warnings


def test_a_snippet_tag_finds_its_file_in_the_first_versions_snippets_folder() -> None:
    """`_snippets/` is where the tag's first version kept its files (mem0's Mintlify site pastes
    `<Snippet file="get-help.mdx" />` from there on 30 pages): they were "not found" and lost."""
    result = compose({"docs.json": "{}", "p.mdx": '---\ntitle: P\n---\nBefore.\n\n<Snippet file="get-help.mdx" />\n',
                      "_snippets/get-help.mdx": "Ask on Discord.\n"})
    assert "Ask on Discord." in "\n".join(c.text for c in result.chunks)
    assert result.snippets_resolved == 1 and result.snippets_unresolved == 0, result.warnings


def test_the_page_reader_works_when_first_used_inside_an_event_loop() -> None:
    """A sync or a test composes inside a running loop (asyncio.run): the reader's V8 must not bind
    to that loop, whose time-limited calls would fail and which is gone once asyncio.run returns.
    A fresh process, as the reader is made once per process."""
    script = (
        "import asyncio\n"
        "from app.corpus.reader import read_markdown\n"
        "async def main():\n"
        "    return read_markdown('# A\\n\\nShown text.', mdx=True)\n"
        "first = asyncio.run(main())\n"
        "assert first.error is None and 'Shown text.' in [b.text for b in first.blocks], first\n"
        "second = read_markdown('Still read.', mdx=False)\n"  # the loop of the first call is closed
        "assert second.error is None and second.blocks[0].text == 'Still read.', second\n"
        "third = asyncio.run(main())\n"
        "assert third.error is None, third\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 0, run.stderr[-2000:]


def test_snippets_are_found_in_the_mdx_tree_not_in_comments_code_or_plain_markdown() -> None:
    """Where a page imports and uses a snippet is read by MDX's parser (issue 46: no regex
    re-reading): an import in a comment is none, a `{prop}` in the snippet's code stays as written,
    a snippet used mid-sentence stays in its sentence, an astral character before a tag moves no
    offset, a snippet's own imports go where MDX would refuse them (inside a component), and a
    CommonMark page (no MDX) shows its import line as text."""
    files = {
        "p.mdx": ("import Price from '/snippets/price.mdx'\nimport Box from '/snippets/box.mdx'\n\n"
                  "{/* import Secret from '/snippets/secret.mdx' */}\n\n"
                  "🚀 Plans cost <Price amount=\"$10\" /> a month.\n\n<Tab title=\"One\">\n<Box />\n</Tab>\n"),
        "snippets/price.mdx": "{amount}\n",
        "snippets/box.mdx": "import Price from '/snippets/price.mdx'\n\nBox text, `{amount}` literal.\n\n"
                            "```js\nconst a = {amount}\n```\n\n<Price amount=\"$5\" />\n",
        "snippets/secret.mdx": "zzsecret\n",
        "plain.md": "import Price from '/snippets/price.mdx'\n\nPlain text <Price />.\n",
    }
    result = compose(files)
    page = "\n".join(c.text for c in result.chunks if c.page == "p.mdx")
    assert "Plans cost $10 a month." in page, page
    assert "Box text, `{amount}` literal." in page and "const a = {amount}" in page and "$5" in page
    assert "zzsecret" not in page and "import" not in page
    plain = "\n".join(c.text for c in result.chunks if c.page == "plain.md")
    assert "import Price from" in plain and "$" not in plain
    assert result.warnings == [] and result.snippets_resolved == 3
