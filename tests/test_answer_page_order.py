"""The offline answer quotes the passages of one page in the page's order (issue 45), read from the
page's file at the synced commit, whatever order retrieval (or the section ids) gave them in. The real
app over HTTP, a real Postgres, a real git repository; keyword-only, so no model loads."""

from __future__ import annotations

import asyncio

import httpx

from app.chat.answerers import ExtractiveAnswerer
from app.corpus.page_order import order_sections, read_source_page
from app.corpus.sources import Source
from app.judge.excerpt import Excerpt
from tests.helpers import commit_all, git, make_docs_repo, write_files
from tests.test_conversations import chat
from tests.test_llms_txt import doors_project, sync_project  # noqa: F401 - the fixture

# The file has Zebra first; ids sort alpha first, and Alpha holds more of the question's words, so
# retrieval ranks it first too: only the file says Zebra comes first.
STRIPES = (
    "---\ntitle: Stripes\naudience: public\n---\nStripes are drawn on the widget.\n\n"
    "## Zebra setup\nSet the stripe width and the stripe colour in the stripes config: `stripe_width` defaults to 4.\n\n"
    "## Alpha notes\nThe stripe width and the stripe colour both live in the stripes config; set the stripe "
    "colour with `stripe_colour`.\n"
)
QUESTION = "How do I set the stripe width and the stripe colour in the stripes config?"


def summary(parts: list[dict]) -> str:
    return "".join(p["delta"] for p in parts if p["type"] == "text-delta")


def test_a_pages_passages_are_quoted_in_the_pages_order(doors_project, clean_db, db_env, start_server) -> None:  # noqa: F811
    write_files(doors_project, {"docs/guides/stripes.mdx": STRIPES})
    commit_all(doors_project, "a page whose sections are in neither id nor retrieval order")
    asyncio.run(sync_project())
    with httpx.Client(base_url=start_server().url, timeout=60) as client:
        text = summary(chat(client, QUESTION))
    zebra, alpha = text.find("**Stripes › Zebra setup**"), text.find("**Stripes › Alpha notes**")
    assert 0 <= zebra < alpha, text


def test_the_chooser_orders_a_pages_passages_by_their_place_in_it() -> None:
    alpha = Excerpt(1, "Stripes", "https://x/stripes#alpha-notes", "Alpha notes",
                    "The stripe width and the stripe colour both live in the stripes config; set the stripe colour with "
                    "`stripe_colour`.", "Stripes › Alpha notes",
                    section="docs:stripes.mdx#alpha-notes")
    zebra = Excerpt(1, "Stripes", "https://x/stripes#zebra-setup", "Zebra setup",
                    "Set the stripe width and the stripe colour in the stripes config: `stripe_width` defaults to 4.",
                    "Stripes › Zebra setup",
                    section="docs:stripes.mdx#zebra-setup")
    unknown = ExtractiveAnswerer().answer(QUESTION, [alpha, zebra])
    assert unknown.index("Alpha notes") < unknown.index("Zebra setup")  # no place known: retrieval's order
    placed = [Excerpt(**{**e.__dict__, "order_in_page": n}) for e, n in ((alpha, 2), (zebra, 1))]
    answer = ExtractiveAnswerer().answer(QUESTION, placed)
    assert answer.index("Zebra setup") < answer.index("Alpha notes"), answer


def test_a_heading_with_a_custom_anchor_keeps_its_place() -> None:
    raw = "# T\n\nIntro.\n\n## Claude Cookbooks {#anthropic-cookbook}\n\nA.\n\n## More Resources\n\nB.\n"
    rows = [{"id": "p#more-resources", "heading": "More Resources"}, {"id": "p#anthropic-cookbook", "heading": "Claude Cookbooks"}]
    assert [r["heading"] for r in order_sections(rows, raw)] == ["Claude Cookbooks", "More Resources"]


def test_a_pages_file_is_read_at_the_commit_asked(tmp_path) -> None:
    """The chat remembers page files (read_source_page): by commit, so a new sync's file is read anew."""
    repo = make_docs_repo(tmp_path / "acme", {"a.md": "# A\n\n## One\n\n## Two\n"})
    first = git(repo, "rev-parse", "HEAD").strip()
    write_files(repo / "docs", {"a.md": "# A\n\n## Two\n\n## One\n"})
    commit_all(repo, "swap")
    second = git(repo, "rev-parse", "HEAD").strip()
    source = Source("docs", repo)
    assert read_source_page(source, first, "a.md") == "# A\n\n## One\n\n## Two\n"
    assert read_source_page(source, second, "a.md") == "# A\n\n## Two\n\n## One\n"
    assert read_source_page(source, first, "missing.md") is None
    assert read_source_page(Source("server", repo, kind="code"), first, "a.md") is None
