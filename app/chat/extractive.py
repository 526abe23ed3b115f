"""The offline Summary: the excerpts' passages that best match the question, quoted as written.

No model, so nothing is rephrased: the answer is made of passages, not of sentences picked one by
one (issue 45: sentence picks echoed a troubleshooting question back without its fix, and cut a
number away from what it counts). A passage is a paragraph of an excerpt together with the code,
list or table that follows it (what "Add this tag to every page:" introduces), or such a block on
its own when the excerpt starts with it (the second part of a long list). Passages are scored by
the question's words they hold, weighted by rarity among the passages, plus half the weight of
their heading's; later guides count less. The best passage is quoted, then any other that scores
close to it, while they fit; in the page's order (each section's place in its page, read from the
page's file by the chat turn), each excerpt's heading once as context
(`**Privacy › What is stored**`), every quoted paragraph cited with its guide's number [n]. A prose
passage brings the one after it (_following), which may be the first of the section's next part
(Excerpt.rest: quoted beside a passage of the excerpt, never leading the answer).

Never quoted:
- the page's description line (the overview's opening sentence: it names the topic, not the
  answer), unless nothing else matches, and then with the passage after it;
- a sentence (or a list's step) ending in ":", or in "the following code.", whose object is not
  shown (the excerpt was cut before its block); when the section's next part opens with that block and both are quoted, the
  sentence is quoted with it (_rejoined).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field

from app.corpus.chunker import is_title_line
from app.judge.excerpt import Excerpt
from app.search.chunk_text import Block, chunk_blocks
from app.search.terms import words

_STOP = frozenset(
    "the and for are but not you your with this that from have has was were can how what when where which who "
    "why does did doing into about there their them then than its it's out use using used get set".split()
)
_CUT = "[…]"  # app/chat/excerpts.py CUT_MARK: the excerpt was cut here
# A sentence ends at ".", "!" or "?" and a space, but not after an abbreviation that never ends one
# ("channel vs. DM", "e.g. a", "i.e. one", "cf. the": openhands-22 quoted "**Channel vs." alone).
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bcf\.)\s+")

# The question asks what to do about a problem: the passage that says what to do answers it, not the
# one restating the problem (issue 45: "the answer echoes the user's error back"). A rule, since no
# model reads the passages offline; it only reorders passages that already match the question.
_TROUBLE = re.compile(r"\b(?:error|errors|fails?|failed|failing|crash\w*|broken|not working|doesn'?t work|won'?t|"
                      r"can'?t|cannot|unable|issue|problem|exception|timeout|timed out|stuck|fix|forbidden|"
                      r"denied|refused)\b|(?-i:\B(?:Error|Exception))\b", re.IGNORECASE)
_REMEDY_HEADING = re.compile(r"\b(?:solution|solutions|fix|fixes|fixing|resolv\w*|resolution|workaround|what to do|"
                             r"how to fix|remed\w*|troubleshoot\w*)\b", re.IGNORECASE)
_SYMPTOM_HEADING = re.compile(r"\b(?:symptoms?|problem|issue|cause|causes|error message)\b", re.IGNORECASE)
# A troubleshooting entry written with bold labels in place of headings (`**Description**` …
# `**Resolution**`, `**Description**: …`): the label names what follows it, up to the next label,
# as a heading would. A label "Description" there is the symptom.
_LABEL = re.compile(r"\*\*([^*\n]{1,40}?)(?::\*\*|\*\*:|\*\*\s*(?:$|\n))")
_SYMPTOM_LABEL = re.compile(r"\b(?:description|symptoms?|problem|issue|error message)\b", re.IGNORECASE)
_REMEDY_TEXT = re.compile(r"(?:^|[.!?]\s+|\n\s*(?:[-*+]|\d+[.)])?\s*)(?:to (?:fix|resolve|solve|avoid|work around)|"
                          r"fix|try|make sure|ensure|set|run|add|use|install|upgrade|increase|decrease|restart|"
                          r"check|remove|update|change|enable|disable|pass|call)\b", re.IGNORECASE)
# A question asking for a number: a passage that states one carries the fact.
_ASKS_NUMBER = re.compile(r"\bhow (?:many|much|long|often|big|large)\b|\b(?:limit|limits|maximum|max|minimum|min|"
                          r"default|timeout|size|per (?:hour|day|minute|second))\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# How much a passage of the first, second, third … guide counts.
GUIDE_WEIGHTS = (1.0, 0.6, 0.5, 0.4)
# Another page's passage joins the answer, after the leading page's, when it scores at least this
# share of the leading passage (both after GUIDE_WEIGHTS): the page that answers is often the
# second guide, behind one that mentions the question's words in passing. Tuned on trigger.dev and
# pnpm (1.5, 1.0, 0.7, 0.5, 0.3), confirmed on the other sets (design/answer-eval.md, session 28);
# 0.3 scored one more on pnpm, but quoted a passage that only names what is asked about ("Open the
# Workbench to run a prompt" for "Does the Workbench keep a version history?"), hiding that the
# docs do not say (tests/test_judgment.py).
OTHER_PAGE_RATIO = 0.5
# A section this short is one unit, quoted whole: its best passage brings the rest (a reference
# entry's "- Default: **2**" list above "How many times to retry…", pnpm). Not a section of titled
# entries (accordions, fields): each of those is a unit of its own. Tuned on pnpm; how the other
# sets moved: design/answer-eval.md, session 30.
SHORT_SECTION_CHARS = 400


def _terms(text: str) -> set[str]:
    # A 5-letter prefix is a crude stem: "store", "stored" and "storing" meet.
    return {w[:5] for w in words(text) if len(w) >= 3 and w not in _STOP}


@dataclass
class _Passage:
    index: int  # the excerpt's place in the list
    position: int  # the passage's place in its excerpt
    blocks: list[Block]
    description: bool = False  # the overview's opening line: never quoted alone
    label: str = ""  # the bold label it is under (_LABEL), "" when none
    rest: bool = False  # of the excerpt's `rest` (the section's next part): it joins, never leads
    # Its blocks before what led into a cut-away block was dropped: that block may open the rest,
    # and then, quoted beside it, the sentence leading into it is quoted too (_rejoined).
    uncut: list[Block] = field(default_factory=list)
    leads_on: bool = False  # it ends leading into the next passage quoted (its ":" is cited before)
    # On a question about a problem, it does not say what to do (_trouble_weight < 2): the error,
    # often with its code block; quoted as the answer, it brings the next passage (_following).
    symptom: bool = False
    terms: set[str] = field(default_factory=set)
    score: float = 0.0

    @property
    def text(self) -> str:
        return "\n\n".join(b.text for b in self.blocks)


# A callout as the page reader writes it, `:::name title` … `:::` (app/corpus/js/src/reader.js):
# CommonMark, which reads the excerpt back, and the widget know no such fence, and showed the
# marker lines as words. It is quoted as the site shows it: its title, else its kind, in bold.
_CALLOUT_OPEN = re.compile(r":{3,}[ \t]*(?:\{([\w-]+)\}|([\w-]+))?[ \t]*(.*)")
_CALLOUT_CLOSE = re.compile(r":{3,}[ \t]*")
# The words Sphinx shows for this one (its `admonitionlabels`); a version note is no callout
# (app/corpus/markdown.py writes its label).
_SPHINX_LABELS = {"seealso": "See also"}


def _callout_label(name: str, title: str) -> str:
    return title or _SPHINX_LABELS.get(name) or name.replace("-", " ").capitalize()


def _shown_callout(text: str) -> str:
    """A paragraph without the callout's marker lines; its title in bold where the callout opens."""
    lines = text.split("\n")
    if len(lines) > 1 and _CALLOUT_CLOSE.fullmatch(lines[-1]):
        lines.pop()
    if (opening := _CALLOUT_OPEN.fullmatch(lines[0])) and (label := _callout_label(
            (opening.group(1) or opening.group(2) or "").lower(), opening.group(3).strip())):
        rest = lines[1:]
        lines = [f"**{label}:** {rest[0]}", *rest[1:]] if rest else [f"**{label}:**"]
    elif opening or _CALLOUT_CLOSE.fullmatch(lines[0]):
        lines.pop(0)
    return "\n".join(lines)


def _blocks(text: str) -> list[Block]:
    """Paragraphs (a quote is one), lists, tables and whole fenced blocks, in order; headings, the
    cut mark and callout marker lines dropped."""
    found: list[Block] = []
    for block in chunk_blocks(text):
        shown = _shown_callout(block.text.rstrip()) if block.kind == "paragraph" else block.text.rstrip()
        if block.kind != "heading" and shown.strip() and shown.strip() != _CUT:
            found.append(Block(shown, "paragraph" if block.kind == "quote" else block.kind, block.items))
    return found


def _introduces(block: Block) -> bool:
    return block.kind == "paragraph" and block.text.rstrip().endswith(":")


# A sentence pointing with a period at the block after it ("You can experiment with this behavior by
# running the following code."): without that block it says nothing, as one ending in ":" (ray-01,
# ray-18: the page's code is not in the corpus).
_POINTS_AHEAD = re.compile(r"(?:\bthe following(?:\s+[\w`-]+)?\s+(?:code|examples?|snippets?|commands?|scripts?|"
                           r"config\w*|output|tables?|lists?|steps|programs?|quer(?:y|ies)|functions?|files?)|"
                           r"\bas follows)\.$", re.IGNORECASE)


def _leads_into(block: Block) -> bool:
    """A paragraph whose last sentence leads into the block after it: ending in ":" or pointing
    ahead (_POINTS_AHEAD)."""
    return _introduces(block) or (block.kind == "paragraph" and bool(_POINTS_AHEAD.search(block.text.rstrip())))


def _item_introduces(block: Block) -> bool:
    """A list whose last item ends in ":" leads into the block after it, as a paragraph does (a
    step's "1. Install `@astrojs/starlight-docsearch`:" over its tabs' commands, Starlight)."""
    return block.kind == "list" and bool(block.items) and block.items[-1].rstrip().endswith(":")


def passages(excerpt: Excerpt, index: int) -> list[_Passage]:
    """The excerpt's passages: a paragraph with the code, list or table after it; a leading block
    of those on its own; a title (is_title_line) with the paragraph after it, since on its own it only
    names the problem its body solves. A paragraph ending in ":" whose block was cut away is no
    passage."""
    found: list[_Passage] = []
    blocks = _blocks(excerpt.text)
    for at, block in enumerate(blocks):
        before = found[-1].blocks if found else []
        # A title line followed by another title line is an entry with no body (a field with no
        # description): the second is the next entry's title, not the first's body.
        titled = (len(before) == 1 and before[0].kind == "paragraph" and is_title_line(before[0].text)
                  and not (block.kind == "paragraph" and is_title_line(block.text)))
        # A title line between a sentence ending in ":" and the code, list or table it introduces is
        # that block's title (a tab's "Python 3.10+", a file name): the three are one passage.
        labels = (before and (_leads_into(before[-1]) or _item_introduces(before[-1])) and is_title_line(block.text)
                  and at + 1 < len(blocks) and blocks[at + 1].kind != "paragraph")
        if (block.kind == "paragraph" and not titled and not labels) or not found:
            found.append(_Passage(index, len(found), [block]))
        else:  # the code, list or table after a paragraph is what it introduces or shows
            found[-1].blocks.append(block)
    kept: list[_Passage] = []
    for passage in found:
        # Its object was cut away: the sentence (or the list's step) leading into it goes too, and
        # then what led into that ("Steps:" over a list whose one step was cut).
        if passage.blocks and (_leads_into(passage.blocks[-1]) or _item_introduces(passage.blocks[-1])):
            passage.uncut = list(passage.blocks)
        while passage.blocks and (_leads_into(last := passage.blocks[-1]) or _item_introduces(last)):
            if last.kind == "list":
                items = last.items[:-1]
                passage.blocks[-1:] = [Block("\n".join(items), "list", items)] if items else []
                continue
            rest = _SENTENCE_END.split(last.text.rstrip())[:-1]
            if not rest:
                passage.blocks.pop()
            else:
                passage.blocks[-1] = Block(last.text[: last.text.rindex(rest[-1]) + len(rest[-1])], "paragraph")
        if passage.blocks:
            kept.append(passage)
    label = ""
    for passage in kept:
        first = passage.blocks[0]
        if first.kind == "paragraph" and (named := _LABEL.match(first.text)):
            label = named.group(1).strip()
        passage.label = label
    if not excerpt.heading and kept and kept[0].position == 0 and kept[0].blocks[0].kind == "paragraph":
        opening = kept[0].blocks[0].text
        kept[0].description = len(kept[0].blocks) == 1 and len(re.findall(r"[.!?](?:\s|$)", opening)) <= 1
    return kept


def _passages_with_rest(excerpt: Excerpt, index: int) -> list[_Passage]:
    """The excerpt's passages, then its rest's (Excerpt.rest), numbered on after them."""
    own = passages(excerpt, index)
    if not excerpt.rest:
        return own
    more = passages(dataclasses.replace(excerpt, text=excerpt.rest, heading=excerpt.heading or " "), index)
    for n, passage in enumerate(more, start=len(own)):
        passage.position, passage.rest = n, True
    return own + more


# A list longer than this is cut to the items that match the question best.
LONG_LIST_CHARS = 600


# A line that opens a list item, nested or not (CommonMark's bullet and ordered markers).
_ITEM_LINE = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


def _one_line_items(block: Block) -> Block:
    """A list with each item on one line: a wrapped item's line breaks are Markdown's soft breaks
    (spaces), and the widget draws a list only when every line opens an item. A nested item keeps
    its own line and its indent, which the widget draws as a list inside the item (joined, "- a
    - b" read as one item's words)."""
    if block.kind != "list":
        return block
    items = tuple("\n".join(_joined_lines(item)) for item in block.items)
    return Block("\n".join(items), "list", items)


def _joined_lines(item: str) -> list[str]:
    lines: list[str] = []
    for line in item.split("\n"):
        if not line.strip():
            continue
        if not lines or _ITEM_LINE.match(line):
            lines.append(line.rstrip())
        else:
            lines[-1] = f"{lines[-1]} {line.strip()}"
    return lines


def _most_matching(parts: list[str], wanted: set[str]) -> list[str] | None:
    """The parts that hold the most of the question's words (at least two, and at most one fewer
    than the best part), in order; None when no part holds two (then no part stands out)."""
    held = [len(_terms(part) & wanted) for part in parts]
    most = max(held, default=0)
    if most < 2:
        return None
    return [part for part, n in zip(parts, held, strict=True) if n >= max(2, most - 1)]


def _matching_items(block: Block, wanted: set[str]) -> Block:
    """A long list cut to the items that hold the most of the question's words, in order ("How
    many questions can a visitor ask per hour?" needs the one item on visitors' questions, not nine
    others); whole when it is short, or when no item stands out (_most_matching)."""
    if len(block.text) <= LONG_LIST_CHARS or (items := _most_matching(list(block.items), wanted)) is None:
        return block
    return Block("\n".join(items), "list", tuple(items))


def _matching_rows(block: Block, wanted: set[str]) -> Block:
    """A long table cut to its header and the rows that hold the most of the question's words, as
    a long list is cut to its items (_matching_items): a 16-row table of CLI flags answered "save
    messages exactly as given" with every flag; whole when no row stands out."""
    lines = block.text.split("\n")
    if len(block.text) <= LONG_LIST_CHARS or len(lines) < 4 or (rows := _most_matching(lines[2:], wanted)) is None:
        return block
    return Block("\n".join(lines[:2] + rows), "table")


def _with_its_section(best: _Passage, candidates: list[_Passage], max_chars: int) -> list[_Passage]:
    """The best passage, or its whole section when that is short and no list of titled entries
    (SHORT_SECTION_CHARS); a passage alone brings the one after it when that fits (_following)."""
    own = [p for p in candidates if p.index == best.index]
    if (best.description or sum(len(p.text) for p in own) > SHORT_SECTION_CHARS
            or any(p.blocks[0].kind == "paragraph" and is_title_line(p.blocks[0].text) for p in own)):
        following = _following(best, candidates)
        if following is not None and len(best.text) + len(following.text) <= max_chars:
            return [best, following]
        return [best]
    return own


def _following(best: _Passage, candidates: list[_Passage]) -> _Passage | None:
    """The passage after `best` in its section, when `best` is prose alone: docs often set out
    the situation in the paragraph matching the question's words and give the fact in the next
    one ("…comments are preserved." then "You can include a `@preserve` keyword in the ignore
    hint."). Not after a titled entry (a field, an accordion: its body ends the entry, and the
    next passage is another's), nor the page's description. Tuned on structlog and typer,
    confirmed on unkey and vitest (design/answer-eval.md, session 32). On a question about a
    problem, a passage that does not say what to do (_Passage.symptom: the error, often with its
    code block) brings the next one too: it is where the docs go on to the fix (lxd-02's "you can
    resolve the issue by installing the HWE kernel" under the `zpool` error; fl-04's `flask run
    --port 5001` under the `Address already in use` messages)."""
    if (any(b.kind != "paragraph" for b in best.blocks) and not best.symptom) or is_title_line(best.blocks[0].text):
        return None
    after = next((p for p in candidates if p.index == best.index and p.position == best.position + 1), None)
    if after is None or after.description:
        return None
    if any(b.kind != "paragraph" for b in best.blocks):
        # After an error's block, only a passage naming something to run or set (code) is taken for
        # the fix: a title cut from its body (mem0-08's "Pick Providers"), a warning or the next
        # topic's prose is not (vitest-08, openhands-04: design/answer-eval.md, session 36).
        holds_code = any(b.kind == "code" or "`" in b.text for b in after.blocks)
        bare_title = len(after.blocks) == 1 and is_title_line(after.blocks[0].text)
        return after if holds_code and not bare_title else None
    return after


def _opens_with_a_block(passage: _Passage) -> bool:
    """The passage starts with code, a list or a table, or with the title line over one."""
    first = passage.blocks[0]
    return first.kind != "paragraph" or (is_title_line(first.text) and len(passage.blocks) > 1
                                         and passage.blocks[1].kind != "paragraph")


def _rejoined(chosen: list[_Passage]) -> None:
    """An excerpt's last passage quoted with the rest's first, when that is the block its last
    sentence (or step) leads into: the sentence cut as leading into nothing is put back ("…between
    **60 seconds** and **14400 seconds (4 hours)**:" over the list the section's next part opens
    with: pipecat-07 was quoted without the range it asked for)."""
    for passage in chosen:
        after = next((p for p in chosen if p.index == passage.index and p.rest and p.position == passage.position + 1),
                     None)
        if passage.uncut and not passage.rest and after is not None and _opens_with_a_block(after):
            passage.blocks, passage.leads_on = passage.uncut, True


def _cite(block: Block, number: int, last: bool) -> str:
    """The block with its guide's number: at its end; before the colon of a paragraph that leads
    into the block after it; none on code."""
    if block.kind == "code":
        return block.text
    if _introduces(block) and not last:
        return f"{block.text.rstrip()[:-1].rstrip()} [{number}]:"
    return f"{block.text} [{number}]"


def _context(excerpt: Excerpt) -> str:
    """The excerpt's place in its page, as the heading of what is quoted from it."""
    trail = excerpt.breadcrumb or " › ".join(p for p in (excerpt.title, excerpt.heading) if p)
    return f"**{trail or excerpt.title}**"


def _trouble_weight(heading: str, passage: _Passage) -> float:
    """For a question about a problem: what says what to do counts double; what restates the
    problem (the asker's own error words) half."""
    if _SYMPTOM_LABEL.search(passage.label):
        return 0.5  # it restates the problem its entry's remedy answers
    if _REMEDY_HEADING.search(f"{heading} {passage.label}") or _REMEDY_TEXT.search(passage.text):
        return 2.0
    return 0.5 if _SYMPTOM_HEADING.search(heading) else 1.0


class PassageChooser:
    """Which passages answer the question, and the answer quoting them (module docstring)."""

    def __init__(self, max_chars: int = 1400, keep_ratio: float = 0.7) -> None:
        self.max_chars = max_chars
        self.keep_ratio = keep_ratio

    def choose(self, question: str, excerpts: list[Excerpt]) -> list[_Passage]:
        """The passages quoted, in the page's order."""
        wanted = _terms(question)
        candidates = [p for index, excerpt in enumerate(excerpts) for p in _passages_with_rest(excerpt, index)]
        if not candidates:
            return []
        for passage in candidates:
            passage.terms = _terms(passage.text)
        frequency: dict[str, int] = {}
        for passage in candidates:
            for term in passage.terms & wanted:
                frequency[term] = frequency.get(term, 0) + 1

        def weight(terms: set[str]) -> float:
            return sum(math.log(1 + len(candidates) / frequency.get(t, 1)) for t in terms & wanted)

        trouble, number = bool(_TROUBLE.search(question)), bool(_ASKS_NUMBER.search(question))
        for passage in candidates:
            excerpt = excerpts[passage.index]
            heading = f"{excerpt.title} {excerpt.heading}"
            score = weight(passage.terms) + 0.5 * weight(_terms(heading) - passage.terms)
            if _terms(excerpt.heading) & wanted:
                score *= 1.5  # the docs say this section is about what is asked ("What is stored")
            # Retrieval ranked the pages with both legs' evidence, which says more than a word count
            # over a few passages: another page's passage must match clearly better to come first.
            score *= GUIDE_WEIGHTS[min(excerpt.number, len(GUIDE_WEIGHTS)) - 1]
            if all(b.kind == "code" for b in passage.blocks):
                # Code answers "how" beside the sentence that explains it; alone, only when it holds
                # more than one of the question's words.
                score *= 0.6 if len(passage.terms & wanted) >= 2 else 0.0
            if trouble:
                score *= (says := _trouble_weight(excerpt.heading, passage))
                passage.symptom = says < 2
            if number and _DIGIT.search(passage.text):
                score *= 1.3
            passage.score = score
        ranked = sorted((p for p in candidates if p.score > 0), key=lambda p: (-p.score, p.index, p.position))
        if not ranked:
            # Nothing overlaps word for word: the best guide's opening is still the best lead.
            ranked = [p for p in candidates if p.index == 0][:2]
        # The first guide's best passage leads: another page's passage, presented as the answer, once
        # gave another product's limit (issue 45). Another page's passage follows it, under its own
        # heading and number, when it matches nearly as well (OTHER_PAGE_RATIO).
        first = excerpts[0].number
        leads = [p for p in ranked if not p.description and not p.rest]
        best = next((p for p in leads if excerpts[p.index].number == first), None) or next(iter(leads), None)
        if best is None:  # only a description matched: what follows it on its page, never it alone
            page = excerpts[ranked[0].index].number
            best = next((p for p in candidates if excerpts[p.index].number == page and not p.description
                         and not p.rest), ranked[0])
        chosen = _with_its_section(best, candidates, self.max_chars)
        size = sum(len(p.text) for p in chosen)
        for passage in ranked:
            same_page = excerpts[passage.index].number == excerpts[best.index].number
            if passage in chosen or passage.score < (self.keep_ratio if same_page else OTHER_PAGE_RATIO) * best.score:
                continue
            if passage.description:  # it names the page's topic; the passages chosen say more
                continue
            if size + len(passage.text) > self.max_chars:
                continue
            chosen.append(passage)
            size += len(passage.text)
        _rejoined(chosen)
        for passage in chosen:
            passage.blocks = [_matching_items(b, wanted) if b.kind == "list" else
                              _matching_rows(b, wanted) if b.kind == "table" else b for b in passage.blocks]
        # The page's order: by guide, then the section's place in its page (stored by sync:
        # Excerpt.order_in_page; unknown, the order retrieval gave), then the passage's place.
        def in_page(p: _Passage) -> tuple[int, int, int, int]:
            excerpt = excerpts[p.index]
            place = excerpt.order_in_page if excerpt.order_in_page is not None else len(excerpts) + p.index
            return (excerpt.number, place, p.index, p.position)

        return sorted(chosen, key=in_page)

    def quote(self, question: str, excerpts: list[Excerpt]) -> str:
        """The answer: the chosen passages under their headings, cited; "" when there is none."""
        chosen = self.choose(question, excerpts)
        if not chosen:
            return ""
        lines: list[str] = []
        shown: set[int] = set()
        for passage in chosen:
            excerpt = excerpts[passage.index]
            context = _context(excerpt)
            if passage.index not in shown and context not in lines:
                lines.append(context)
            shown.add(passage.index)
            for n, block in enumerate(passage.blocks):
                last = n == len(passage.blocks) - 1 and not passage.leads_on
                lines.append(_cite(_one_line_items(block), excerpt.number, last=last))
        return "\n\n".join(lines)
