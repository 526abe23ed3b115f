"""The excerpt: a retrieved section as the answerers and the model verifier read it, and the
framing that gives excerpts to a model as data (one module, so none needs google.genai or the
chat to get them)."""

from __future__ import annotations

import html
import secrets
from dataclasses import dataclass


@dataclass(frozen=True)
class Excerpt:
    """A section as the answerer reads it."""

    number: int  # 1-based, as listed in Relevant Guides
    title: str
    url: str
    heading: str
    text: str
    breadcrumb: str = ""  # Page › Section › Subsection: where the excerpt sits in its page
    place: tuple[str, ...] = ()  # where its page sits in the site's navigation (tab, group): shown, not framed
    section: str = ""  # the section's id (docs_section.id)
    order_in_page: int | None = None  # its rank in its page among the page's excerpts (app/chat/excerpts.py); None: unknown
    # The next part of its section (app/chat/excerpts.py with_rest_of_section): the offline answer
    # quotes from it only beside a passage of `text`; "" when none was read.
    rest: str = ""


def framing_id(texts: list[str]) -> str:
    """A random tag suffix that none of `texts` contains, so no excerpt can close or open the framing."""
    while True:
        candidate = secrets.token_hex(8)
        if not any(candidate in text for text in texts):
            return candidate


def format_excerpts(excerpts: list[Excerpt], frame: str | None = None) -> str:
    """The excerpts inside `<excerpts-ID>` tags; the text stays verbatim (code keeps its `<` and `>`)."""

    def attr(value: str) -> str:
        return html.escape(value, quote=True)

    def section(e: Excerpt) -> str:
        """The excerpt's place in its page (`Install › Sub part`): a subsection's heading alone may
        not say what it is about."""
        if not e.heading:
            return "Overview"
        trail = e.breadcrumb.split(" › ")[1:]  # the first part is the page title, said already
        return " › ".join(trail) if trail and trail[-1] == e.heading else e.heading

    frame = frame or framing_id([part for e in excerpts for part in (e.title, e.heading, e.breadcrumb, e.url, e.text)])
    blocks = [
        f'<excerpt-{frame} number="{e.number}" title="{attr(e.title)}" section="{attr(section(e))}" '
        f'url="{attr(e.url)}">\n{e.text}\n</excerpt-{frame}>'
        for e in excerpts
    ]
    return f"<excerpts-{frame}>\n" + "\n".join(blocks) + f"\n</excerpts-{frame}>"
