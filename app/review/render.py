"""The check's report as Markdown: a pull request's job summary or comment, or a terminal.

Built from the report's fields only: paths, anchors, link targets, warning kinds and lines, counts.
No page text and no warning's words reach it (a warning can be about text a page hides).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from app.review.model import HIDDEN_KINDS, WITHHELD, AnchorChange, Report

_KIND_WORDS = {
    "snippet_unresolved": "snippet import that does not resolve",
    "snippet_cycle": "snippets that import each other",
    "snippet_limit": "too many snippets pasted",
    "front_matter_duplicate_key": "front-matter key written twice",
    "audience_conflict": "audience declared twice or contradicted",
    "front_matter_invalid": "front matter that cannot be read (page skipped)",
    "unclosed_comment": "comment never closed (text after it hidden)",
    "unknown_component": "unknown component",
    "route_collision": "two files published at one URL",
    "unusable_path": "file name that cannot be linked to",
    "duplicate_chunk": "two sections with one id",
    "compose_error": "page that cannot be composed",
    "parser_rejected": "page its parser rejects (skipped)",
}
_MAX_ROWS = 50
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 and C1 controls but tab and newline


def code(text: str) -> str:
    """`text` as inline code, whatever backticks and bars it holds (a table cell stays one)."""
    text = text.replace("\n", " ").replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _cell(text: str) -> str:
    return text.replace("\n", " ").replace("|", "\\|")


def _audiences(names: list[str] | None) -> str:
    return ", ".join(names) if names else "—"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows[:_MAX_ROWS]]
    if len(rows) > _MAX_ROWS:
        lines.append(f"\n…and {len(rows) - _MAX_ROWS} more (the `--json` report lists them all)")
    return lines


def _page(source: str, page: str | None, several: bool) -> str:
    if page is None:
        return "—"
    return code(f"{source}:{page}" if several else page)


def markdown(report: Report) -> str:
    data = report.to_dict()
    report = report.shown()
    several = len(report.commits) > 1
    found, failed = data["found"], data["failed"]
    out = [f"## docschat check: {code(report.base)} → {code(report.head)}", ""]
    if failed:
        out.append("**Flagged:** " + ", ".join(f"{flag} ({found[flag]})" for flag in failed)
                   + " — the check fails (`--fail-on " + ",".join(report.fail_on) + "`).")
    else:
        out.append("Nothing flagged" + (f" (`--fail-on {','.join(report.fail_on)}`)." if report.fail_on else
                                       " (`--fail-on none`)."))
    out.append("")

    out += ["### Audiences", ""]
    if report.audiences:
        rows = []
        for change in report.audiences:
            mark = "⚠️ made public" if change.flagged else ("new" if change.before is None else
                                                            "removed" if change.after is None else
                                                            "widened" if change.severity == 2 else "narrowed")
            rows.append([_page(change.source, change.page, several), _audiences(change.before),
                         _audiences(change.after), mark, code(change.decided_by) if change.decided_by else "—"])
        out += _table(["page", "before", "after", "", "decided by"], rows)
    else:
        out.append("No page changed audience.")
    out.append("")

    out += ["### Hidden text and parsing", ""]
    if report.warnings:
        out.append("Warnings the head has and the base did not (the text itself is never shown here):")
        out.append("")
        rows = [[("⚠️ " if w["kind"] == "snippet_unresolved" or w["kind"] in HIDDEN_KINDS else "")
                 + _cell(_KIND_WORDS.get(w["kind"], w["kind"])), _page(w["source"], w["page"], several),
                 str(w["line"]) if w["line"] else "—"]
                for w in report.warnings]
        out += _table(["warning", "page", "line"], rows)
    else:
        out.append("No new warning.")
    out.append("")

    out += ["### Links", ""]
    if report.anchors:
        rows = [[_page(a.source, a.page, several), _anchor(a.anchor), _fate(a), _cited(a.cited_by)]
                for a in report.anchors]
        out += ["Heading anchors the head no longer has:", "", *_table(["page", "anchor", "", "cited by"], rows), ""]
    else:
        out += ["No heading anchor removed or renamed.", ""]
    if report.links:
        rows = [[_page(link.source, link.page, several), link.target if link.target == WITHHELD else code(link.target),
                 "resolved at the base" if link.was == "resolved" else "new link"] for link in report.links]
        out += ["Internal links that do not resolve at the head:", "", *_table(["page", "link", ""], rows)]
    else:
        out.append("No internal link broken.")
    out.append("")

    if report.questions or report.gaps:
        out += ["### Questions", ""]
    if report.questions:
        changed = [q for q in report.questions if q.get("changed")]
        out.append(f"{len(changed)} of {len(report.questions)} questions retrieve other pages or change outcome.")
        if changed:
            out.append("")
            rows = [[_cell(q["question"][:120]), q["before"]["outcome"], q["after"]["outcome"],
                     ", ".join(code(_path(p)) for p in q["pages_lost"]) or "—",
                     ", ".join(code(_path(p)) for p in q["pages_gained"]) or "—"] for q in changed]
            out += _table(["question", "base", "head", "pages no longer retrieved", "pages now retrieved"], rows)
        out.append("")
    if report.gaps:
        quoted = any(g.get("question") for g in report.gaps)
        out.append("Frequent recent gaps the head may now answer"
                   + (":" if quoted else " (their questions are not quoted: `--show-gap-questions`):"))
        out.append("")
        rows = [[_cell(g["question"][:120]) if g.get("question") else "—", str(g["count"]), g["outcome"],
                 f"{g['before']} → {g['after']}", ", ".join(code(_path(p)) for p in g["changed_pages"]) or "—"]
                for g in report.gaps]
        out += _table(["gap", "asked", "recorded as", "base → head", "changed pages it now retrieves"], rows)
        out.append("")

    size = report.size
    out += ["### Size", "",
            f"- pages: {size.pages_added} added, {size.pages_changed} changed, {size.pages_removed} removed",
            f"- chunks: {size.chunks_added} added, {size.chunks_changed} changed, {size.chunks_removed} removed"]
    if size.embedding_model:
        out.append(f"- a sync would embed {_n(size.to_embed, 'text')} in {_n(size.embedding_calls, 'call')} to "
                   f"{code(size.embedding_model)} ({size.from_cache} more from the embedding cache)")
    out.append("")
    if report.notes:
        out += ["Notes:", "", *[f"- {_cell(note)}" for note in report.notes], ""]
    commits = "; ".join(f"{name} {c['base'][:10]}…{c['head'][:10]}" for name, c in report.commits.items())
    out.append(f"<sub>{_cell(commits)} · {report.seconds}s</sub>")
    # A file name is any bytes git takes: an escape sequence in one must not drive the terminal
    # (or a log viewer) that shows the report.
    return _CONTROLS.sub("\ufffd", "\n".join(out)) + "\n"


def _fate(change: AnchorChange) -> str:
    if change.moved_to is not None:
        where = code(change.moved_to)
        return f"page moved: {where} {_anchor(change.renamed_to)}" if change.renamed_to else f"page moved to {where}, section gone"
    return f"renamed to {_anchor(change.renamed_to)}" if change.renamed_to else "removed"


def _path(url: str) -> str:
    """A retrieved page's URL as its path (the JSON report keeps the whole URL)."""
    return urlsplit(url).path or url


def _anchor(name: str) -> str:
    return name if name == WITHHELD else code("#" + name)


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _cited(cited: dict[str, Any]) -> str:
    return ", ".join(f"{what}: {n}" for what, n in cited.items() if n) or "—"
