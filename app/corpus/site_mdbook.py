"""An mdBook site: which files are its pages, where it publishes them, where its sidebar places them.

mdBook 0.5 builds a book from `book.toml` and the `SUMMARY.md` of its source folder (`[book] src`,
`src` by default), as crates/mdbook-summary (parse_summary) and crates/mdbook-html read them:

- Pages: the chapters SUMMARY.md links, and no other file: a Markdown file of the source folder
  SUMMARY.md does not name is never rendered (copy_files_except_ext copies every file but `.md`),
  one outside the folder is never read (unless a chapter `{{#include}}`s it: its text is that
  chapter's). A draft chapter (`- [Name]()`, no path) is in the sidebar with no page.
- Where: a chapter `x/y.md` at `x/y.html` (a `README.md` chapter at its folder's `index.html`: the
  index preprocessor), relative to the source folder.
- Place: SUMMARY.md's order, and for a numbered chapter its part's title (`# Part`) and the names of
  the chapters it is nested under; prefix and suffix chapters (links outside a list) stand alone.
- `[output.html.redirect]` (`"/old.html" = "new.html"`): a redirect page, never a chapter's.
- `[output.html.code.hidelines]`: the prefix that hides a code line per language (mdbook_markdown.py).

The chapter's title is its own first heading (what the page shows; `<title>` is SUMMARY's name).
Preprocessors other than mdBook's own `links` and `index` (`[preprocessor.x]`) are programs docschat
never runs: their `{{#x}}` text stays as written, with a warning naming them.
"""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.corpus.site_model import NOT_BUILT, Exclusion, NavPage, Site, stem

MDBOOK_CONFIG = "book.toml"
_OWN_PREPROCESSORS = ("links", "index")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_H1 = re.compile(r"^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_HEADING = re.compile(r"^ {0,3}#{2,6}(?:[ \t]|$)")
_SETEXT = re.compile(r"^ {0,3}=+[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$")
_LINK = re.compile(r"\[((?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_MARKUP = re.compile(r"[`*_]|\\(?=.)")


@dataclass(frozen=True)
class Chapter:
    path: str | None  # relative to the source folder; None: a draft
    name: str
    place: tuple[str, ...]


def parse_summary(text: str, warnings: list[str] | None = None) -> list[Chapter]:
    """SUMMARY.md's chapters in order, as parse_summary reads them: a title (a first `#` heading),
    prefix chapters (links in paragraphs), then parts (`#` headings) of numbered chapters (list
    items, nested by indentation), then suffix chapters (links in paragraphs again). A line it
    cannot place is passed over; a list after the suffix chapters ends the reading (mdBook fails
    the build there), with a warning."""
    chapters: list[Chapter] = []
    phase = "title"
    part: tuple[str, ...] = ()
    nesting: list[tuple[int, str]] = []  # (indent, name) of the items above the current one
    blank = True
    for line in _setext_titles(_COMMENT.sub("", text).splitlines()):
        if not line.strip():
            blank = True
            continue
        h1, item = _H1.match(line), _ITEM.match(line)
        if phase == "title":
            phase = "prefix"
            if h1:
                blank = True
                continue
        if phase == "suffix" and (h1 or item):
            if warnings is not None:
                warnings.append("SUMMARY.md: a list or part title after the suffix chapters, which mdBook refuses "
                                "(\"Suffix chapters cannot be followed by a list\"): not read past it")
            break
        if h1:
            phase, part, nesting = "numbered", (_shown(h1.group(1) or ""),), []
        elif item:
            phase = "numbered"
            indent = len(item.group(1).expandtabs(4))
            while nesting and nesting[-1][0] >= indent:
                nesting.pop()
            link = _LINK.search(item.group(2) or "")
            if link:
                name = _shown(link.group(1))
                chapters.append(Chapter(_target(link.group(2)), name, (*part, *(n for _, n in nesting))))
                nesting.append((indent, name))
        elif _RULE.match(line) or _HEADING.match(line):
            pass  # a separator, or a heading that is no part title
        elif phase == "numbered" and blank and not line.startswith((" ", "\t")):
            phase = "suffix"
        if phase in ("prefix", "suffix") and not item and not h1:
            chapters.extend(Chapter(_target(link.group(2)), _shown(link.group(1)), ()) for link in _LINK.finditer(line))
        blank = False
    return chapters


def _setext_titles(lines: list[str]) -> list[str]:
    """The lines, a line underlined `===` (a setext H1: pulldown-cmark's part title as much as `# x`) as `# line`."""
    out: list[str] = []
    for line in lines:
        previous = out[-1] if out else ""
        if (_SETEXT.match(line) and previous.strip() and not previous.startswith(("    ", "\t"))
                and not (_ITEM.match(previous) or _H1.match(previous) or _HEADING.match(previous) or _RULE.match(previous))):
            out[-1] = "# " + previous.strip()
        else:
            out.append(line)
    return out


def _shown(markdown: str) -> str:
    """A link's or heading's text as stringify_events joins it (its text and code, no markup)."""
    return _MARKUP.sub("", markdown).strip()


def _target(href: str) -> str | None:
    href = href[1:-1] if href.startswith("<") and href.endswith(">") else href
    href = href.replace("%20", " ")
    return posixpath.normpath(href) if href else None


def mdbook_site(files: Mapping[str, str]) -> Site:
    site = Site("mdbook", MDBOOK_CONFIG)
    try:
        config: dict[str, Any] = tomllib.loads(files[MDBOOK_CONFIG])
    except (tomllib.TOMLDecodeError, UnicodeError) as error:
        site.warnings.append(f"{MDBOOK_CONFIG}: not TOML ({error}): read with mdBook's defaults")
        config = {}
    book = _table(config, "book")
    src = posixpath.normpath(book["src"] if isinstance(book.get("src"), str) else "src").strip("/")
    src = "" if src == "." else src
    html = _table(_table(config, "output"), "html")
    # `additional-css` (paths from the book's folder) is on every page: a class it hides hides text.
    css = html.get("additional-css")
    site.stylesheets = tuple(posixpath.normpath(name) for name in css if isinstance(name, str)) if isinstance(css, list) else ()
    hidelines = {k: v for k, v in _table(_table(html, "code"), "hidelines").items() if isinstance(v, str)}
    # An `editable` Rust block is Ace's editor when `[output.html.playground] editable`: every line shown.
    editable = _table(html, "playground").get("editable") is True
    site.mdbook = json.dumps({"hidelines": hidelines, "editable": editable}, sort_keys=True) if hidelines or editable else ""
    # A redirect's source is a URL path of the book (`/old.html`): as a file of the source folder.
    site.redirects = [(prefix_of(src) + re.sub(r"\.html$", "", source.lstrip("/")), str(to))
                      for source, to in _table(html, "redirect").items()]
    others = sorted(name for name in _table(config, "preprocessor") if name not in _OWN_PREPROCESSORS)
    if others:
        site.warnings.append(f"{MDBOOK_CONFIG} runs preprocessors docschat does not ({', '.join(others)}): what they "
                             "would write (their `{{#…}}` text) is shown as written")
    prefix = prefix_of(src)
    summary = f"{prefix}SUMMARY.md"
    if summary not in files:
        site.warnings.append(f"{summary}: not found (mdBook fails without it): no page is built")
    chapters = parse_summary(files.get(summary, ""), site.warnings)
    slugs: list[tuple[str, str]] = []
    for chapter in chapters:
        if chapter.path is None:
            continue  # a draft: in the sidebar, never built
        if chapter.path.startswith(("/", "../")) or chapter.path == "..":
            # mdBook joins it as Rust's Path::join: the build machine's `/x.md`, or a page written
            # outside its output folder (`../x.md` at `../x.html`): no page of the site.
            site.warnings.append(f"{summary}: chapter {chapter.path!r} is outside the source folder: no page of the site")
            continue
        path = prefix + chapter.path
        if stem(path) in site.listed:
            continue  # listed twice: mdBook's check_for_duplicates fails the build; the first stays
        site.listed[stem(path)] = NavPage(chapter.place)
        folder, name = posixpath.split(chapter.path)
        name = "index.md" if name.lower() == "readme.md" else name
        slugs.append((path, prefix + posixpath.join(folder, re.sub(r"\.md$", "", name) + ".html")))
    site.slugs = tuple(slugs)
    site.routes = ((src, ""),) if src else ()
    site.every_page_listed = False
    redirected = {source for source, _ in site.redirects}
    for path in files:
        if not path.endswith((".md", ".mdx", ".markdown")) or stem(path) in site.listed or stem(path) in redirected:
            continue  # a chapter; or a redirect's source (Site.exclusion: a redirect, where mdBook writes a stub)
        if path == summary:
            why = "the book's SUMMARY.md, its navigation: not a page"
        elif not path.startswith(prefix):
            why = f"outside the book's source folder ({src or '.'}, {MDBOOK_CONFIG}'s [book] src): never built"
        else:
            why = "not a chapter of SUMMARY.md: mdBook builds no page of it"
        site.left_out[path] = Exclusion(NOT_BUILT, why)
    return site


def prefix_of(src: str) -> str:
    return f"{src}/" if src else ""


def _table(table: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = table.get(key)
    return value if isinstance(value, dict) else {}
