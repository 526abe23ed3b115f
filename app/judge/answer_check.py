"""Whether the excerpts hold an answer to *this* question, not only to its topic (issue 31).

The confidence (confidence.py) measures how near the docs are to the question's topic. A question
in the product's own words whose answer the docs do not hold ("Does the Batch API support
streaming?", "How do I set the sidebarWidth option?") is near; this check asks whether its
specific terms are supported by the sections the answer would be made from. Offline evidence,
no model:

- specific terms: the question's words that name something (a word the docs never use that is
  no typo of one they do and no everyday word: "AsciiDoc", "Netlify", "Rust"; a capitalised word
  inside the sentence: "Excel", "Teams"), its versions and numbers ("2.7", "418", "Tier 6") and
  its identifiers (`max_method_retries`, `sidebarWidth`, `eu-west-3`);
- each is looked for, as a whole word, in the sections the answer would be made from, and if
  not there, in every section the asker may see.

The check never refuses on its own (issue 45): word evidence raised in-domain refusal on fresh
sets only to 0.33-0.46 in seven rounds, while real users' questions were refused for their own
words ("around", "4am"). Its verdict is "partly" when a specific term is not in the checked
sections (nowhere in the docs, or elsewhere), a count is asked and no passage states one, or (once
the answer is quoted) a limit is asked and no quoted sentence states one: the answer is given, with
one line naming what the docs found do not mention. Else "answerable".
Refusal is the answer floor's (confidence.py) or a model verifier's (verify.py). Missing stems (the
question's known words none of the sections holds) are reported, never decisive. How the rules were
chosen, on which set, and what confirmed them: design/judgment.md.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Literal

import asyncpg

from app.judge.confidence import Judgment
from app.judge.question_terms import (
    COUNT_OR_SIZE,
    asking_nothing,
    compound_parts,
    error_context,
    everyday_words,
    holds,
    hyphenated,
    is_specific_word,
    literals,
    name_pairs,
    names,
    near_pattern,
    only_in_context,
    prefix_query,
    word_pattern,
)
from app.text import storable_text

Verdict = Literal["answerable", "partly", "not"]

# The sections the answer is made from: the answerer gets CHAT_MAX_EXCERPTS (4) of them; the check
# reads one more, so a term the fifth section holds is not called missing.
CHECK_SECTIONS = 5
# A question asking for a count or a limit is answered in full only if a passage of the checked
# sections states a number beside COUNT_EVIDENCE_WORDS of what is asked about (all of them when it
# has fewer). Sixth round: tuned on claude + ray, confirmed on mintlify (design/judgment.md).
COUNT_EVIDENCE_WORDS = 2
# A name pair whose first word this share of the visible sections holds is the docs' own subject
# and a thing of theirs ("Claude Documentation", "Anthropic Developer Console"): not checked as a
# pair (tuned on claude answerable dev: "Claude" 0.60, "Anthropic" 0.24 of sections; named
# things' first words 0.02-0.05: "GitHub", "AWS", "Microsoft", "TypeScript").
SUBJECT_SHARE = 0.10
# A name the question asks about, checked against the answer once it is quoted (unquoted_names): a
# capitalised word of lower-case letters inside the sentence ("Opus", "Notion", "Workbench"), not an
# acronym, identifier or version ("S3", "IP", "KubeRay", "M1": on ray, the tuning set, those were the
# asker's context and hedged answerable questions). Issue 45, second round (design/judgment.md).
NAMED_WORD = re.compile(r"[A-Z][a-z]{2,}")
# An unknown word shorter than this is not counted ("ok", "v2").
MIN_UNKNOWN_LENGTH = 3
# As docs_search_text (min_typo_length): a shorter stem has too many neighbours one edit away to
# call it a typo ("rust" is one edit from "rest").
MIN_TYPO_LENGTH = 5

# One statement: the question's terms (typos corrected as the keyword leg searches them), whether
# any checked section holds each, and the raw words no visible section holds with whether a known
# stem is one edit away (a typo, not an unknown name).
TERMS_SQL = """
with terms as (
  select q.lexeme, q.ndoc, q.idf
  from public.docs_query_lexemes(
    public.docs_search_text(public.docs_identifier_words($1), $3, everyday_words => $4), $3, 1.0, 32, 0) as q
)
select t.lexeme, t.ndoc, t.idf,
       exists (select 1 from public.docs_section d
               where d.id = any($2::text[])
                 and d.search_vector operator(pg_catalog.@@) pg_catalog.quote_literal(t.lexeme)::pg_catalog.tsquery)
         as supported
from terms t
order by t.idf desc, t.lexeme
"""

UNKNOWN_SQL = """
with words as (
  select w.word, w.n
  from pg_catalog.regexp_split_to_table(pg_catalog.left(coalesce($1, ''), 4000), '[^[:alnum:]]+')
       with ordinality as w(word, n)
  where w.word <> ''
),
stems as (
  select w.word, w.n, l.lexeme
  from words w
  cross join lateral pg_catalog.unnest(
    pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig, pg_catalog.lower(w.word))) as l
)
select s.word, s.n, s.lexeme,
       pg_catalog.length(s.lexeme) >= $3 and exists (
         select 1 from public.docs_lexeme_stats st
         where (pg_catalog.left(st.lexeme, 2) = pg_catalog.left(s.lexeme, 2)
                or pg_catalog.right(st.lexeme, 2) = pg_catalog.right(s.lexeme, 2))
           and pg_catalog.abs(pg_catalog.length(st.lexeme) - pg_catalog.length(s.lexeme)) <= 1
           and ($2::text[] is null or st.audiences operator(pg_catalog.&&) $2::text[])
           and public.docs_one_edit_apart(s.lexeme, st.lexeme)) as typo
from stems s
where not exists (select 1 from public.docs_lexeme_stats st
                  where st.lexeme = s.lexeme
                    and ($2::text[] is null or st.audiences operator(pg_catalog.&&) $2::text[]))
order by s.n
"""

# Which of the specific terms any visible section's text holds as a whole word (case-insensitive):
# a term the checked sections lack may still be elsewhere in the docs (retrieval missed it: the
# answer is partly there), or nowhere (the docs do not say). $1: the terms, $2: their regular
# expressions. The full-text index finds the sections holding the term's words first (the stored
# vector indexes identifiers by their words too, as docs_identifier_words spells the term here);
# only those are matched against the pattern, so the check stays cheap on a large index (a scan
# of every section's text took 45–90 ms on 3,300 sections). A term with digits is looked up by
# prefix ($4: "2.1" must meet the lexeme "2.1.0"), unstemmed. A phrase is found by its stems in
# order. A term of stop words only has no query:
# its pattern is matched against every section.
CORPUS_SQL = """
with terms as (
  select t.term, p.pattern, t.n,
         case when q.prefix <> ''
              then pg_catalog.to_tsquery('pg_catalog.simple'::pg_catalog.regconfig, q.prefix)
              when k.kind = 'phrase'
              then pg_catalog.phraseto_tsquery('pg_catalog.english'::pg_catalog.regconfig,
                                               pg_catalog.regexp_replace(t.term, '[^[:alnum:]]+', ' ', 'g'))
                   operator(pg_catalog.||)
                   pg_catalog.plainto_tsquery('pg_catalog.english'::pg_catalog.regconfig,
                                              pg_catalog.regexp_replace(t.term, '[^[:alnum:]]+', '', 'g'))
              else pg_catalog.plainto_tsquery('pg_catalog.english'::pg_catalog.regconfig,
                                              public.docs_identifier_words(t.term)) end as query
  from pg_catalog.unnest($1::text[]) with ordinality as t(term, n)
  join pg_catalog.unnest($2::text[]) with ordinality as p(pattern, n) using (n)
  join pg_catalog.unnest($4::text[]) with ordinality as q(prefix, n) using (n)
  join pg_catalog.unnest($5::text[]) with ordinality as k(kind, n) using (n)
)
select t.n,
       case when pg_catalog.numnode(t.query) > 0 then exists (
              select 1 from public.docs_section d
              where d.search_vector operator(pg_catalog.@@) t.query
                and ($3::text[] is null or d.audiences operator(pg_catalog.&&) $3::text[])
                and (d.title operator(pg_catalog.~*) t.pattern or d.heading operator(pg_catalog.~*) t.pattern
                     or d.content operator(pg_catalog.~*) t.pattern))
            else exists (
              select 1 from public.docs_section d
              where ($3::text[] is null or d.audiences operator(pg_catalog.&&) $3::text[])
                and (d.title operator(pg_catalog.~*) t.pattern or d.heading operator(pg_catalog.~*) t.pattern
                     or d.content operator(pg_catalog.~*) t.pattern))
       end as found
from terms t
order by t.n
"""

# The share of visible sections holding each word (stemmed), from the word statistics
# (sql/functions/docs_word_share.sql): a word most sections hold is what the docs are about
# ("Claude", "Ray", "Mintlify"), not a name the question adds.
SHARE_SQL = """
select s.word, s.share
from public.docs_word_share($1::text[], $2::text[]) with ordinality as s(word, share, n)
order by s.n
"""

# Literals: a version or dotted number, a number of 2+ digits, an identifier (snake_case,
# camelCase, kebab-case with a digit such as eu-west-3, dotted.names). Case-insensitive match.
@dataclass(frozen=True)
class AnswerCheck:
    verdict: Verdict
    absent: tuple[str, ...] = ()  # specific terms no visible section holds: the docs do not say
    elsewhere: tuple[str, ...] = ()  # specific terms the checked sections lack, found elsewhere in the docs
    missing: tuple[str, ...] = ()  # known stems none of the checked sections holds (reported only)
    missing_share: float = 0.0  # their share of the question's IDF weight (reported only)
    missing_ndoc: tuple[int, ...] = ()  # how many visible sections hold each missing stem (reported only)
    near: tuple[str, ...] = ()  # identifiers the docs do not use whose words they hold as one (partly)
    context: tuple[str, ...] = ()  # terms read past: only in a pasted error, or the asker's own count
    sections: tuple[str, ...] = ()  # the section ids checked
    method: str = "offline"
    supporting: str | None = None  # a model verifier's supporting excerpt, when it gave one
    not_covered_text: str | None = None  # a model verifier's own words for what is not covered
    unstated: tuple[str, ...] = ()  # a count asked about these words, and no passage states one
    named: tuple[str, ...] = ()  # names the docs hold, not their subject: a quoted answer should show them
    unquoted: tuple[str, ...] = ()  # of those, the ones the quoted answer does not show (unquoted_names)

    @property
    def not_covered(self) -> list[str]:
        """What the excerpts do not cover (for the "partly" line)."""
        return [*self.absent, *self.elsewhere, *self.unquoted]

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "verdict": self.verdict, "method": self.method, "absent": list(self.absent),
            "elsewhere": list(self.elsewhere), "missing": list(self.missing),
            "missing_share": round(self.missing_share, 4), "missing_ndoc": list(self.missing_ndoc),
            "sections": list(self.sections), "near": list(self.near), "context": list(self.context),
        }
        if self.unstated:
            data["unstated"] = list(self.unstated)
        if self.named:
            data["named"] = list(self.named)
        if self.unquoted:
            data["unquoted"] = list(self.unquoted)
        if self.supporting:
            data["supporting"] = self.supporting
        if self.not_covered_text:
            data["not_covered"] = self.not_covered_text
        return data


@dataclass
class TermEvidence:
    """What the check reads, before any rule."""

    terms: list[tuple[str, int, float, bool]] = field(default_factory=list)  # lexeme, ndoc, idf, supported
    specific: list[str] = field(default_factory=list)  # unknown specific words, literals, names
    names: list[str] = field(default_factory=list)  # the capitalised words among them
    in_sections: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    near: list[str] = field(default_factory=list)  # absent identifiers whose words the docs hold as one
    context: list[str] = field(default_factory=list)  # terms only inside a pasted error message
    phrases: list[str] = field(default_factory=list)  # name pairs and hyphenated compounds (loose match)
    named: list[str] = field(default_factory=list)  # names the docs hold, not their subject (NAMED_WORD)


async def term_evidence(
    conn: asyncpg.Connection, question: str, sections: list[tuple[str, str]], audiences: list[str] | None
) -> TermEvidence:
    """`sections`: (id, text) of the sections the answer would be made from."""
    question = storable_text(question)
    rows = await conn.fetch(TERMS_SQL, question, [s[0] for s in sections], audiences, everyday_words(question))
    unknown_rows = await conn.fetch(UNKNOWN_SQL, question, audiences, MIN_TYPO_LENGTH)
    evidence = TermEvidence(terms=[(r["lexeme"], int(r["ndoc"]), float(r["idf"]), bool(r["supported"])) for r in rows])
    unknown = [r["word"] for r in unknown_rows
               if not r["typo"] and len(r["word"]) >= MIN_UNKNOWN_LENGTH and not r["word"].isdigit()
               and is_specific_word(r["word"], first=r["n"] == 1)]
    seen: set[str] = set()
    context = error_context(question)
    numbers_context = [*context, *asking_nothing(question)]
    named = names(question)
    pairs = name_pairs(question)
    if pairs:
        shares = await conn.fetch(SHARE_SQL, [p.split()[0] for p in pairs], audiences)
        pairs = [p for p, row in zip(pairs, shares, strict=True) if float(row["share"]) < SUBJECT_SHARE]
    phrases = [*pairs, *hyphenated(question)]
    for term in [*unknown, *literals(question), *named, *phrases]:
        if term.lower() not in seen and not any(term.lower() in s.lower().split() for s in evidence.specific):
            seen.add(term.lower())
            if (only_in_context(term, question, context)
                    or (COUNT_OR_SIZE.fullmatch(term) and only_in_context(term, question, numbers_context))):
                evidence.context.append(term)
                continue
            evidence.specific.append(term)
    evidence.phrases = [p for p in phrases if p in evidence.specific]
    # Names and phrases found elsewhere in the docs are how the asker writes; only absent ones count.
    evidence.names = [n for n in [*named, *evidence.phrases] if n in evidence.specific and n not in unknown]
    titled = [n for n in evidence.names if NAMED_WORD.fullmatch(n)]
    if titled:
        shares = await conn.fetch(SHARE_SQL, titled, audiences)
        evidence.named = [n for n, row in zip(titled, shares, strict=True) if 0 < float(row["share"]) < SUBJECT_SHARE]
    text = "\n".join(s[1] for s in sections)
    outside: list[str] = []
    for term in evidence.specific:
        (evidence.in_sections if holds(text, term, term in evidence.phrases) else outside).append(term)
    if outside:
        # A phrase is found by its stems in order ("pre-filling" as "prefill"):
        # the index decides, the pattern matches anything.
        found = await conn.fetch(
            CORPUS_SQL, outside, ["" if t in evidence.phrases else word_pattern(t) for t in outside], audiences,
            ["" if t in evidence.phrases else prefix_query(t) for t in outside],
            ["phrase" if t in evidence.phrases else "plain" for t in outside])
        for term, row in zip(outside, found, strict=True):
            (evidence.elsewhere if row["found"] else evidence.absent).append(term)
    compounds = [t for t in evidence.absent if compound_parts(t)]
    if compounds:
        # Narrowed by the parts' words (the identifier's joined form, "batchtimeouts", is no word of theirs).
        found = await conn.fetch(CORPUS_SQL, [" ".join(compound_parts(t)) for t in compounds],
                                 [near_pattern(compound_parts(t)) for t in compounds],
                                 audiences, ["" for _ in compounds], ["plain" for _ in compounds])
        for term, row in zip(compounds, found, strict=True):
            if row["found"]:
                evidence.absent.remove(term)
                evidence.near.append(term)
                evidence.elsewhere.append(term)
    return evidence


def verdict_of(evidence: TermEvidence, sections: tuple[str, ...] = ()) -> AnswerCheck:
    """"partly" when a specific term is nowhere in the docs, or one (not merely a capitalised word)
    is in the docs but not in the checked sections; else "answerable". Never "not": that is the
    floor's or a model verifier's to say."""
    total = sum(idf for _, ndoc, idf, _ in evidence.terms if ndoc > 0)
    missing = [(lexeme, idf, ndoc) for lexeme, ndoc, idf, supported in evidence.terms if ndoc > 0 and not supported]
    share = sum(m[1] for m in missing) / total if total > 0 else 0.0
    # A capitalised word the docs use elsewhere ("Anthropic", "API", "Documentation") is how the
    # asker writes, not what the answer must name: only one the docs never use counts.
    elsewhere = [t for t in evidence.elsewhere if t not in evidence.names]
    verdict: Verdict = "partly" if evidence.absent or elsewhere else "answerable"
    return AnswerCheck(verdict, absent=tuple(evidence.absent), elsewhere=tuple(elsewhere),
                       missing=tuple(m[0] for m in missing), missing_share=share, sections=sections,
                       missing_ndoc=tuple(m[2] for m in missing), near=tuple(evidence.near),
                       context=tuple(evidence.context), named=tuple(evidence.named))


# A question asking for a count, a size or a limit ("How many …", "What is the maximum …", "Is there a
# limit …"); one asking for a duration or a version is not (the rule was not confirmed on those).
_ASKS_A_COUNT = re.compile(
    r"\bhow (?:many|much|big|large)\b|\b(?:what|which)(?:'s| is| are)? the (?:max|maximum|minimum|min|largest|"
    r"smallest|limit|default)\b|\bis there a (?:max|maximum|limit|cap)\b|\b(?:max|maximum|minimum) (?:number|size|"
    r"length|amount)\b", re.IGNORECASE)
_ASKS_A_TIME_OR_VERSION = re.compile(
    r"\bhow (?:long|often|soon)\b|\bevery how many\b|\bhow many (?:ms|milliseconds|seconds|minutes|hours|days|weeks|"
    r"months)\b|\b(?:what|which)(?: is| are|'s)? the (?:default |maximum |max |minimum )?(?:interval|timeout|ttl|"
    r"duration)\b|\b(?:what|which)\b(?: minimum| oldest| latest)? (?:\w+ ){0,3}versions?\b|\bminimum version\b",
    re.IGNORECASE)
# The words of a count question that ask for the count, not what is counted.
_COUNT_WORDS = frozenset("mani much long often max maximum minimum min limit number version default time per quick "
                         "soon interval timeout durat larg largest small smallest cap everi big one two three first".split())
# A number standing as one: the digits of a name ("Auth0", "woff2", "EC2") state no count (each was
# taken as one in a window checked for mintlify's "how many user groups…" and "…custom fonts…").
_STATED_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])\$?\d[\d,]*(?:\.\d+)*")
# An ordered list's item number ("1. Open the dashboard") counts steps, not what is asked about: it
# stated "how many languages can one site have" from a how-to's steps (mintlify, session 29).
_ITEM_NUMBER = re.compile(r"(?m)^([ \t]*)\d+[.)](?=\s|$)")
_NO_LIMIT = re.compile(r"\b(?:unlimited|no limit)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"(])|\n+")
SENTENCE_STEMS_SQL = """
select t.n, array(
         select l.lexeme from pg_catalog.unnest(pg_catalog.to_tsvector(
           'pg_catalog.english'::pg_catalog.regconfig, public.docs_identifier_words(t.passage))) as l) as lexemes
from pg_catalog.unnest($1::text[]) with ordinality as t(passage, n)
order by t.n
"""


def asks_a_count(question: str) -> bool:
    return bool(_ASKS_A_COUNT.search(question)) and not _ASKS_A_TIME_OR_VERSION.search(question)


def counted_words(terms: list[tuple[str, int, float, bool]]) -> list[str]:
    """What a count question counts: its stems the docs hold that are no count word, no number and
    not the docs' subject (held by SUBJECT_SHARE of the sections or more: "claude", "tool")."""
    # The visible sections' count, read back from any held term's idf (docs_query_lexemes:
    # idf = ln(1 + (N - ndoc + 0.5) / (ndoc + 0.5)), solved for N): no round trip for it.
    corpus = next(((math.exp(idf) - 1) * (ndoc + 0.5) + ndoc - 0.5 for _, ndoc, idf, _ in terms if ndoc > 0), 0.0)
    return [lexeme for lexeme, ndoc, _, _ in terms
            if 0 < ndoc < SUBJECT_SHARE * corpus and lexeme not in _COUNT_WORDS and not lexeme[:1].isdigit()]


async def count_stated(conn: asyncpg.Connection, question: str, counted: list[str],
                       sections: list[tuple[str, str]]) -> bool:
    """Whether a passage of the sections (a sentence or line with its neighbours, under the section's
    title and heading) states a number the question does not, beside COUNT_EVIDENCE_WORDS of the
    counted words."""
    need = min(COUNT_EVIDENCE_WORDS, len(counted))
    if need == 0:
        return True
    asked_numbers = set(_STATED_NUMBER.findall(question))
    heads, bodies = [], []
    for _, text in sections:
        lines = text.split("\n", 2)
        heads.append(" ".join(lines[:2]))
        prose = _ITEM_NUMBER.sub(r"\1-", lines[2]) if len(lines) > 2 else ""
        bodies.append([p.strip() for p in _SENTENCE_END.split(prose) if p and p.strip()])
    rows = await conn.fetch(SENTENCE_STEMS_SQL, [p for head, body in zip(heads, bodies, strict=True) for p in [head, *body]])
    stems = [set(r["lexemes"]) for r in rows]
    at = 0
    for body in bodies:
        head, sentence_stems = stems[at], stems[at + 1: at + 1 + len(body)]
        at += 1 + len(body)
        for n in range(len(body)):
            window = range(max(0, n - 1), min(len(body), n + 2))
            text = " ".join(body[m] for m in window)
            if not (any(x not in asked_numbers for x in _STATED_NUMBER.findall(text)) or _NO_LIMIT.search(text)):
                continue
            held = head.union(*(sentence_stems[m] for m in window))
            if sum(1 for word in counted if word in held) >= need:
                return True
    return False


async def check_answer(
    conn: asyncpg.Connection, question: str, sections: list[tuple[str, str]], audiences: list[str] | None
) -> AnswerCheck:
    evidence = await term_evidence(conn, question, sections, audiences)
    check = verdict_of(evidence, tuple(s[0] for s in sections))
    question = storable_text(question)
    if asks_a_count(question):
        counted = counted_words(evidence.terms)
        if not await count_stated(conn, question, counted, sections):
            check = dataclasses.replace(check, verdict="partly", unstated=tuple(counted))
    return check


def unquoted_names(check: AnswerCheck, answer: str) -> AnswerCheck:
    """The offline check once the answer is made of quoted passages: a name the question asks about
    that the docs hold (`check.named`: "Opus", "Notion") and no quoted passage shows is something the
    answer does not cover, so the answer is "partly", naming it ("Does the Workbench keep a version
    history?" quoted the prompt-versioning passages without a word on the Workbench). Checked as a
    word start, so "Projects" shows "Project". Tuned on ray, confirmed on claude and mintlify
    (design/judgment.md)."""
    shown = [t.lower() for t in check.not_covered]
    missing = tuple(name for name in check.named if name.lower() not in shown
                    and not re.search(r"(?<![A-Za-z0-9])" + re.escape(name), answer, re.IGNORECASE))
    return dataclasses.replace(check, verdict="partly", unquoted=missing) if missing else check


# A count question that asks for a limit ("What is the maximum number of…", "Is there a limit on how
# many…", "…at once"), and, in a sentence of the quoted answer, a limit stated: a limit word beside a
# number the question does not hold ("up to 10", "Maximum is 90", "MAX_ITEMS (default 500)"), or
# "unlimited". Session 33: found on the seventeen eval sets' in-domain misses (a default or another
# thing's number quoted for a maximum), confirmed on the unanswerable-indomain and answerable files of
# claude, ray and mintlify (design/judgment.md).
_ASKS_A_LIMIT = re.compile(r"\b(?:max|maximum|limit|limits|at most|at once|cap|how deep|upper bound)\b", re.IGNORECASE)
_STATES_A_LIMIT = re.compile(r"\b(?:max\w*|maximum|limit\w*|up to|at most|no more than|cap\w*|unlimited|exceed\w*|"
                             r"only|upper)\b", re.IGNORECASE)
_CITATION = re.compile(r"\[\d+\]")
_LINK_TARGET = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*\)")
_BOLD_LINE = re.compile(r"\s*\*\*.*\*\*\s*")


def limit_stated(question: str, answer: str) -> bool:
    """Whether a sentence of the quoted answer (not a heading line) states a limit: a limit word and
    a number the question does not hold, or "unlimited"/"no limit"."""
    asked = set(_STATED_NUMBER.findall(question))
    text = _ITEM_NUMBER.sub(r"\1-", _LINK_TARGET.sub("]", _CITATION.sub("", answer)))
    for sentence in _SENTENCE_END.split(text):
        if not sentence or _BOLD_LINE.fullmatch(sentence) or not _STATES_A_LIMIT.search(sentence):
            continue
        if _NO_LIMIT.search(sentence) or any(x not in asked for x in _STATED_NUMBER.findall(sentence)):
            return True
    return False


def unstated_limit(check: AnswerCheck, question: str, answer: str) -> AnswerCheck:
    """The offline check once the answer is quoted: a count question asking for a limit whose quoted
    passages state none ("How many custom fonts can I load at once?" quoted the fonts' settings) is
    answered "partly" (the line says the number asked for is not stated)."""
    if check.verdict != "answerable" or not asks_a_count(question) or not _ASKS_A_LIMIT.search(question):
        return check
    if limit_stated(question, answer):
        return check
    return dataclasses.replace(check, verdict="partly", unstated=("limit",))


def with_check(judgment: Judgment, check: AnswerCheck) -> Judgment:
    """The judgment with the check's verdict recorded in its explanation; whether to answer is
    unchanged (the check never refuses)."""
    return dataclasses.replace(judgment, explanation=judgment.explanation | {"answer_check": check.to_dict()})
