"""A snippet whose front matter cannot be read is internal: its text is never pasted into a public
page (fail closed, app/corpus/compose.py `_page_audiences`). Composed in memory, no database."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

PAGE = ('---\ntitle: Page\naudience: public\n---\nimport Note from "/snippets/note.mdx";\n\n## Setup\n\n'
        "Before the note.\n\n<Note />\n\nAfter the note.\n")


@pytest.mark.parametrize("front", ["audience: 12", "audience: [a, [b]]", "audience: ''"])
def test_a_snippet_with_unreadable_front_matter_is_not_pasted_into_a_public_page(front: str) -> None:
    files = {"page.mdx": PAGE, "snippets/note.mdx": f"---\n{front}\n---\nSECRETWORD from the snippet.\n"}
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("internal",)))
    public = [c for c in result.chunks if "public" in c.audiences]
    assert public and not [c.id for c in public if "SECRETWORD" in c.text], result.chunks
    assert any("snippets/note.mdx" in w and "not pasted" in w for w in result.warnings), result.warnings


def test_a_snippet_declared_public_is_pasted() -> None:
    """The positive control: the same snippet, readable and public, is pasted."""
    files = {"page.mdx": PAGE, "snippets/note.mdx": "---\naudience: public\n---\nSECRETWORD from the snippet.\n"}
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("internal",)))
    assert any("SECRETWORD" in c.text for c in result.chunks if "public" in c.audiences)


# Front matter docschat does not recognize (issue 46): a page saying `audience: internal` there is
# internal, and so is a snippet, or a page pasted as one. Else a public page would publish it.
UNRECOGNIZED = {
    "leading blank line": "\n---\naudience: internal\n---\n",
    "BOM and blank line": "\ufeff\n---\naudience: internal\n---\n",
    "TOML": '+++\naudience = "internal"\n+++\n',
    "zero-width space": "\u200b---\naudience: internal\n---\n",
    "Cyrillic а in the key": "---\n\u0430udience: internal\n---\n",
}


@pytest.mark.parametrize("front", UNRECOGNIZED.values(), ids=UNRECOGNIZED.keys())
@pytest.mark.parametrize("pasted", ["snippets/note.mdx", "note.mdx"], ids=["snippet", "page as snippet"])
def test_a_snippet_declaring_internal_where_not_read_is_not_pasted_into_a_public_page(front: str, pasted: str) -> None:
    page = PAGE.replace("/snippets/note.mdx", "/" + pasted)
    files = {"page.mdx": page, pasted: f"{front}SECRETWORD from the snippet.\n"}
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("public",)))
    public = [c for c in result.chunks if "public" in c.audiences]
    assert public and not [c.id for c in public if "SECRETWORD" in c.text], result.chunks
    assert any(pasted in w and "not pasted" in w for w in result.warnings), result.warnings


@pytest.mark.parametrize("tag", ['<Snippet file="note.mdx" />'])
def test_a_snippet_tag_declaring_internal_where_not_read_is_not_pasted(tag: str) -> None:
    files = {"page.mdx": "---\naudience: public\n---\n## Setup\n\nBefore.\n\n" + tag + "\n",
             "snippets/note.mdx": "\n---\naudience: internal\n---\nSECRETWORD from the snippet.\n"}
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("public",)))
    assert result.chunks and not [c.id for c in result.chunks if "SECRETWORD" in c.text], result.chunks
