"""Search-box snippets are plain text made from the Markdown's tokens, cut at word boundaries, with
inline code whole (issue 47): app/search/plain_text.py, and through docs_search_box end to end."""

from __future__ import annotations

import re

import pytest

from app.search.plain_text import ELLIPSIS, plain_text, snippet
from tests.helpers import seed_docs

MARKUP = re.compile(r"`|\*\*|^#|\]\(|```|\|")

SECTION = (
    "## What visitors see\n\n"
    "Visitors may ask `RATE_LIMIT_PER_HOUR` times an hour; **bold** and _soft_ words, a [link](/docs/x).\n\n"
    "Send `Authorization: Bearer <ADMIN_TOKEN>` with every admin call.\n\n"
    "```bash\nmake demo\n```\n\n"
    "| setting | default |\n|---|---|\n| `PORT` | 8000 |\n\n"
    "- one item\n- ![a diagram of the flow](flow.png) two\n"
)


def _words_of(text: str) -> list[str]:
    return text.split()


def _is_whole_words_of(shown: str, text: str) -> bool:
    """`shown` (without its ellipses) is a run of whole whitespace-separated words of `text`."""
    inner = shown.removeprefix(ELLIPSIS).removesuffix(ELLIPSIS).split()
    words = text.split()
    return any(words[i:i + len(inner)] == inner for i in range(len(words) - len(inner) + 1))


def test_plain_text_is_the_tokens_text_without_markup() -> None:
    text = plain_text(SECTION)
    assert text == (
        "What visitors see Visitors may ask RATE_LIMIT_PER_HOUR times an hour; bold and soft words, a link. "
        "Send Authorization: Bearer <ADMIN_TOKEN> with every admin call. make demo setting default PORT 8000 "
        "one item a diagram of the flow two"
    )


def test_inline_code_keeps_angle_brackets_and_the_heading_is_left_out() -> None:
    shown, spans = snippet(SECTION, "What visitors see", ["Bearer", "admin"])
    assert "Bearer <ADMIN_TOKEN>" in shown
    assert not MARKUP.search(shown), shown
    assert not shown.removeprefix(ELLIPSIS).startswith("What visitors see")
    assert [shown[a:b] for a, b in spans] == ["Bearer", "ADMIN", "admin"]
    assert _is_whole_words_of(shown, plain_text(SECTION))


def test_a_snippet_starts_and_ends_at_white_space() -> None:
    filler = " ".join(f"Filler_sentence number {n} says nothing." for n in range(80))
    section = f"## Everything\n\n{filler} The `zanzibarite` setting turns it on. {filler}\n"
    shown, spans = snippet(section, "Everything", ["zanzibarite", "setting"])
    assert shown.startswith(ELLIPSIS) and shown.endswith(ELLIPSIS)
    assert _is_whole_words_of(shown, plain_text(section)), shown
    assert len(shown.split()) <= 24
    assert [shown[a:b] for a, b in spans] == ["zanzibarite", "setting"]
    assert shown.index("zanzibarite") < len(shown) // 2  # a few words lead into it


def test_a_snippet_starts_where_the_matchs_sentence_does_when_that_is_nearer() -> None:
    shown, _ = snippet("One two three four five six seven. Then the zanzibarite works.", "", ["zanzibarite"])
    assert shown == f"{ELLIPSIS}Then the zanzibarite works."


def test_without_a_match_the_snippet_is_the_beginning() -> None:
    shown, spans = snippet("## Intro\n\nThe first words of the section come first.", "Intro", [])
    assert shown == "The first words of the section come first." and spans == []


@pytest.mark.parametrize("section", [
    "",
    "## Only a heading",
    "```\na fence never closed",
    "**a *b** c* `unclosed code",
    "<script>alert(1)</script> <img src=x onerror=alert(1)> &lt;b&gt; &amp;",
    "> quoted\n>\n> > nested `code`\n\n1. one\n   - two",
    "\u202eevil\u202c right-to-left override",
    "\x00 nul and \ud7ff edge",
    "[" * 300 + "deep" + "]" * 300,
    "*" * 5000,
])
def test_odd_markdown_gives_text_and_spans_inside_it(section: str) -> None:
    shown, spans = snippet(section, "Only a heading", ["deep", "code", "nested", "alert", "evil"])
    assert isinstance(shown, str)
    assert all(0 <= a < b <= len(shown) for a, b in spans)
    assert len(shown) <= 240 + 2 * len(ELLIPSIS) or len(shown.split()) <= 24


def test_a_long_run_without_spaces_is_cut_between_characters_around_the_match() -> None:
    chinese = "这是一个很长的没有空格的中文句子" * 60
    section = f"{chinese}搜索框{chinese}"
    shown, spans = snippet(section, "", ["搜索框"])
    assert len(shown) <= 240 + 2 * len(ELLIPSIS)
    # Postgres marks words the parser finds; a CJK run is one word to it and to us: no span inside.
    assert all(shown[a:b] == "搜索框" for a, b in spans)
    combining = "e\u0301" * 400 + " match " + "a\u0308" * 400
    shown, spans = snippet(combining, "", ["match"])
    assert [shown[a:b] for a, b in spans] == ["match"]
    body = shown.removeprefix(ELLIPSIS).removesuffix(ELLIPSIS)
    assert body[0] not in "\u0301\u0308", "a cut split a letter from its accent"


def test_offsets_count_code_points_with_astral_characters_and_odd_words() -> None:
    shown, spans = snippet("🙂 emoji 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 then c++ and a.b and C++ again", "", ["c++", "a.b", "emoji"])
    assert [shown[a:b] for a, b in spans] == ["emoji", "c++", "a.b", "C++"]


# --- through docs_search_box, as GET /docs/search serves it ------------------------------------


@pytest.fixture
def admin_page(offline, database_url):
    seed_docs(database_url, {"admin.mdx": "---\ntitle: Admin console\naudience: public\n---\n" + SECTION})
    return database_url


async def test_the_search_box_sends_plain_snippets_with_inline_code_whole(admin_page, pool) -> None:
    from app.search.search_box import SearchRequest, search_box

    result = (await search_box(pool, SearchRequest("bearer admin"), ["public"], "https://docs.example.com")).to_dict()
    section = result["results"][0]["sections"][0]
    assert "Bearer <ADMIN_TOKEN>" in section["snippet"], section
    assert not MARKUP.search(section["snippet"]), section["snippet"]
    marked = [section["snippet"][a:b].lower() for a, b in section["highlights"]]
    assert "bearer" in marked and "admin" in marked, section

    typed = (await search_box(pool, SearchRequest("rate_lim"), ["public"], "https://docs.example.com")).to_dict()
    shown = typed["results"][0]["sections"][0]["snippet"]
    assert not MARKUP.search(shown) and _is_whole_words_of(shown, plain_text(SECTION)), shown

    # From psql too: ts_headline no longer drops `<ADMIN_TOKEN>` as if it were an HTML tag.
    raw = await pool.fetchval("select snippet from public.docs_search_box('bearer admin', '{public}')")
    assert "Bearer <ADMIN_TOKEN>" in raw.replace("\ue000", "").replace("\ue001", ""), raw
