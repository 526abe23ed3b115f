"""An mdBook chapter as mdBook 0.5 renders it: its links preprocessor, then pulldown-cmark.

mdBook runs its `links` preprocessor on a chapter's raw text before anything reads it as Markdown
(crates/mdbook-driver/src/builtin_preprocessors/links.rs and links/take_lines.rs):

- `{{#include file}}`, `{{#include file:N}}`, `:N:M`, `:N:`, `::M` (lines, 1-based, M inclusive),
  `{{#include file:anchor}}` (the lines between `ANCHOR: anchor` and `ANCHOR_END: anchor`, other
  anchor lines dropped); the file relative to the chapter's folder, a file's own links relative to
  its folder, at most 10 deep; each pasted line after the first gets the text before the link on
  its line (an include indented in a list stays in the list). A file that cannot be read leaves the
  link as written (mdBook logs an error and goes on).
- `{{#rustdoc_include file:…}}`: the whole file, the lines outside the range or anchor prefixed
  `# ` (hidden in a Rust code block, below); `{{#playground file attrs}}`: the file in a
  ```` ```rust,attrs ```` block; `{{#title text}}`: the chapter's `<title>`, nothing on the page;
  `\\{{#…}}`: the text without its backslash. Any other `{{#name …}}` is another preprocessor's
  (none is run): left as written.

Then pulldown-cmark reads it with mdBook's options (crates/mdbook-markdown: tables, footnotes,
strikethrough, task lists, heading attributes, smart punctuation, definition lists, GFM's alerts),
here by pyromark, which binds the same parser. What mdBook's HTML renderer changes of the text
(crates/mdbook-html/src/html): an alert's title (`Note`, `Tip`, … admonitions.rs), and the lines of a
code block it hides (hide_lines.rs): in a `rust` block a line `#` or `# x` (after spaces) is hidden,
`##x` shows `#x`; in another language, lines starting with the block's `hidelines=P` prefix or
`[output.html.code.hidelines]`'s prefix for its language. Hidden lines are shown only when a reader
clicks the block's eye button: not on the page, so not indexed (a line of setup, `# use x;`,
would answer nothing a reader sees).
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Callable
from typing import Any

_LINK = re.compile(r"\\\{\{#.*\}\}|\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}")  # find_links' LINK
_ANCHOR_START = re.compile(r"ANCHOR:\s*(?P<name>[\w_-]+)")
_ANCHOR_END = re.compile(r"ANCHOR_END:\s*(?P<name>[\w_-]+)")
_MAX_DEPTH = 10  # MAX_LINK_NESTED_DEPTH
# A page pastes at most so many includes and characters, as snippets.MAX_PASTES and MAX_PASTED_CHARS
# (not imported: snippets imports sources, which imports the chunker, which imports this module).
MAX_PASTES = 500
MAX_PASTED_CHARS = 1_000_000
# new_cmark_parser's options (mdbook-markdown), by their names in pyromark.Options.
_OPTIONS = ("TABLES", "FOOTNOTES", "STRIKETHROUGH", "TASKLISTS", "HEADING_ATTRIBUTES", "SMART_PUNCTUATION",
            "DEFINITION_LIST", "GFM")
_TOKEN = "\ufdd0"  # a noncharacter: no page writes it
# A code element's opening tag, its block's token (a Markdown block's), its HTML; never across another `<pre><code`.
_CODE = re.compile(r"(<pre><code(?: class=\"([^\"]*)\")?>)(?:\ufdd0(\d+)\ufdd0)?((?:(?!<pre><code).)*?)</code></pre>", re.DOTALL)
_ALERT = re.compile(r"<blockquote class=\"markdown-alert-(note|tip|important|warning|caution)\">\n")
_HEADING_ID = re.compile(r"<h([1-6]) id=\"([A-Za-z0-9_:.\-]+)\"([^>]*)>(.*?)</h\1>", re.DOTALL)
_BORING = re.compile(r"^(\s*)#(.?)(.*)$")  # hide_lines_rust's BORING_LINES_REGEX


def expand_links(page: str, text: str, read: Callable[[str], str | None], warnings: list[str]) -> str:
    """`text` (the chapter at `page`, a path in the site's folder) with its `{{#…}}` links
    replaced as mdBook's links preprocessor replaces them; `read` gives a file's text by its path
    in the site's folder (`../x` above it), None when there is none."""
    return _replace_all(page, text, posixpath.dirname(page), 0, read, warnings, [MAX_PASTES, MAX_PASTED_CHARS, 0])  # pastes, characters left; warned


def _replace_all(page: str, text: str, folder: str, depth: int, read: Callable[[str], str | None],
                 warnings: list[str], left: list[int]) -> str:
    out: list[str] = []
    end = 0
    for match in _LINK.finditer(text):
        kind, argument = match.group(1), match.group(2)
        if kind is None:  # `\{{#…}}`: shown without its backslash
            out.append(text[end:match.start()] + match.group(0)[1:])
            end = match.end()
            continue
        if kind == "title":
            out.append(text[end:match.start()])
            end = match.end()
            continue
        words = argument.split()
        if kind not in ("include", "rustdoc_include", "playground", "playpen") or not words:
            continue  # another preprocessor's (not run): left as written
        target, _, where = words[0].partition(":") if kind != "playground" and kind != "playpen" else (words[0], "", "")
        path = posixpath.normpath(posixpath.join(folder, target))
        # An absolute path is the build machine's file (Rust's Path::join), never the repository's:
        # read by `read`, `/repository/x` would name a repository file (compose's REPOSITORY key).
        content = None if target.startswith("/") else read(path)
        if content is None:
            warnings.append(f"{page}: {match.group(0)} names no file docschat can read ({path}): left as written, "
                            "as mdBook leaves a link it cannot read")
            continue
        if left[0] <= 0 or left[1] <= 0:
            # Not mdBook's rule (its build never ends): a file including itself five times, ten deep,
            # pastes ten million times. As MDX snippets, a page pastes at most so much.
            if not left[2]:
                left[2] = 1
                warnings.append(f"{page}: more than {MAX_PASTES} includes or {MAX_PASTED_CHARS:,} characters pasted; "
                                "the rest paste nothing")
            out.append(text[end:match.start()])
            end = match.end()
            continue
        left[0], left[1] = left[0] - 1, left[1] - len(content)
        if kind == "include":
            pasted = _take(content, where, hide_rest=False)
        elif kind == "rustdoc_include":
            pasted = _take(content, where, hide_rest=True)
        else:
            content = content if content.endswith("\n") else content + "\n"
            pasted = f"```rust{',' if words[1:] else ''}{','.join(words[1:])}\n{content}```\n"
        before = text[end:match.start()]
        out.append(before)
        if depth < _MAX_DEPTH:
            pasted = _replace_all(page, pasted, posixpath.dirname(path), depth + 1, read, warnings, left)
            prefix = "".join(out).split("\n")[-1]
            out.append(("\n" + prefix).join(_lines(pasted)))
        else:
            warnings.append(f"{page}: includes nested more than {_MAX_DEPTH} deep (a cycle?): pastes nothing")
        end = match.end()
    out.append(text[end:])
    return "".join(out)


def _take(content: str, where: str, *, hide_rest: bool) -> str:
    """parse_range_or_anchor, then take_lines / take_anchored_lines (or their rustdoc_include
    forms, which keep the other lines behind `# `)."""
    lines = _lines(content)
    parts = where.split(":", 2)  # splitn(3, ':'): a third part is not read
    first = parts[0]
    if first and _usize(first) is None:  # an anchor
        kept: list[str] = []
        inside = False
        for line in lines:
            start, stop = _ANCHOR_START.search(line), _ANCHOR_END.search(line)
            if inside:
                if stop:
                    if stop.group("name") == first:
                        inside = False
                        if not hide_rest:
                            break
                elif not start:
                    kept.append(line)
            elif start:
                inside = start.group("name") == first  # another anchor's start line: dropped
            elif hide_rest and not stop:
                kept.append("# " + line)
        return "\n".join(kept)
    number, end = _usize(first), _usize(parts[1]) if len(parts) > 1 else None
    low = max(number - 1, 0) if number is not None else 0
    high: int | None
    if len(parts) == 1:  # `:N` alone: line N; nothing: every line
        high = low + 1 if number is not None else None
    else:  # `:N:M`; an end that is no number (`:N:`) has no bound
        high = end
    if hide_rest:
        return "\n".join(line if low <= n and (high is None or n < high) else "# " + line for n, line in enumerate(lines))
    return "\n".join(lines[low:high])


def render_mdbook(text: str, hidelines: str = "") -> str:
    """The chapter's HTML as mdBook shows its text: pulldown-cmark's, alerts titled, hidden code
    lines left out (`hidelines`: Site.mdbook, `[output.html.code.hidelines]` and the playground's `editable`)."""
    # Imported here: only an mdBook book needs the Rust parser's binding; every other page reads without it.
    import pyromark

    options = pyromark.Options(0)
    for name in _OPTIONS:
        options |= getattr(pyromark.Options, f"ENABLE_{name}")
    config: dict[str, Any] = json.loads(hidelines) if hidelines else {}
    prefixes: dict[str, str] = config.get("hidelines", {})
    editable: bool = config.get("editable", False)
    # Each Markdown code block's text is swapped for a token before rendering, then for its shown
    # lines: counting `<pre><code>`s in the HTML miscounts once raw HTML writes one (session 37).
    source = text.encode()
    blocks: list[tuple[list[str], list[str]]] = []  # (info words, text) of each Markdown code block
    cuts: list[tuple[int, int, bytes]] = []
    inside = False
    # Read as plain dicts: pyromark 0.10.3's stubs type each event, 0.10.0's do not.
    spans: list[tuple[Any, Any]] = list(pyromark.events_with_range(text, options=options))
    for event, span in spans:
        if isinstance(event, dict) and isinstance(event.get("Start"), dict) and "CodeBlock" in event["Start"]:
            blocks.append((_info(event), []))
            inside = True
        elif event == {"End": "CodeBlock"}:
            inside = False
        elif inside and isinstance(event, dict) and "Text" in event:
            # Its first text becomes the token, the others empty lines (a `> ` or indent before them stays).
            line = f"{_TOKEN}{len(blocks) - 1}{_TOKEN}\n" if not blocks[-1][1] else "\n"
            blocks[-1][1].append(str(event["Text"]))
            cuts.append((span["start"], span["end"], line.encode() if source[span["end"] - 1:span["end"]] == b"\n" else
                         line.rstrip("\n").encode()))
    for start, end, cut in reversed(cuts):
        source = source[:start] + cut + source[end:]
    rendered = pyromark.html(source.decode(), options=options)

    def code(match: re.Match[str]) -> str:
        if match.group(3) is not None:  # a Markdown code block
            info, lines = blocks[int(match.group(3))]
            return match.group(1) + html.escape(_shown_lines("".join(lines), info, prefixes, editable), quote=False) + "</code></pre>"
        classes = (match.group(2) or "").split(" ")  # raw HTML: hide_lines reads its classes as mdBook's own
        language = next((c[len("language-"):] for c in classes if c.startswith("language-")), "")
        if not language or "<" in match.group(4):
            return match.group(0)  # no language; or markup in it, which hide_lines does not read as lines
        shown = _shown_lines(html.unescape(match.group(4)), [language, *classes], prefixes)
        return match.group(1) + html.escape(shown, quote=False) + "</code></pre>"

    rendered = _CODE.sub(code, rendered)
    # A heading's `{ #id }` (heading attributes) is its anchor: written back as the `{#id}` the chunker reads.
    rendered = _HEADING_ID.sub(lambda m: f"<h{m.group(1)}{m.group(3)}>{m.group(4)} {{#{m.group(2)}}}</h{m.group(1)}>",
                               rendered)
    return _ALERT.sub(lambda m: m.group(0) + f"<p class=\"blockquote-tag-title\">{m.group(1).title()}</p>\n", rendered)


def _usize(text: str) -> int | None:
    """Rust's `usize::from_str`: ASCII digits after an optional `+` (`int` also takes `²`, `١`, `_`, spaces)."""
    return int(text) if re.fullmatch(r"\+?[0-9]+", text) and int(text) < 2 ** 64 else None


def _lines(text: str) -> list[str]:
    """Rust's str::lines: split at `\n` (a `\r` before it dropped), no empty last line."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    return lines[:-1] if lines and lines[-1] == "" else lines


def _info(event: dict[str, dict[str, object]]) -> list[str]:
    kind = event["Start"]["CodeBlock"]
    info = kind.get("Fenced", "") if isinstance(kind, dict) else ""
    return [word for word in re.split(r"[ \t,]", str(info)) if word]


def _shown_lines(code: str, info: list[str], prefixes: dict[str, str], editable: bool = False) -> str:
    """hide_lines: the lines of a code block a reader sees before clicking its eye button; all of
    an `editable` Rust block's when the book's playground is editable (Ace shows every line)."""
    language = info[0] if info else ""
    lines = code.split("\n")
    if language == "rust" and editable and "editable" in info[1:]:
        return code
    if language == "rust":
        shown = []
        for line in lines:
            boring = _BORING.match(line)
            if boring and boring.group(2) == "#":
                shown.append(boring.group(1) + "#" + boring.group(3))
            elif not (boring and boring.group(2) in ("", " ")):
                shown.append(line)
        return "\n".join(shown)
    prefix = next((word[len("hidelines="):] for word in info[1:] if word.startswith("hidelines=")), None)
    prefix = prefix if prefix is not None else prefixes.get(language)
    if not prefix:
        return code
    return "\n".join(line for line in lines if not line.lstrip().startswith(prefix))
