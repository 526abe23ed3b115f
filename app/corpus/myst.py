"""MyST markup (Sphinx's Markdown): what a reader sees stays, the directive syntax goes.

Docs built with Sphinx and MyST write directives as fences (```` ```{note} ````, ``:::{tip}``)
whose first lines are options (``:language: python``), and cross-references as roles
(``{ref}`label```). As plain Markdown a directive fence is "code", so an admonition's prose
was indexed as code, and a ``{literalinclude}`` (a file pulled in at build time, which the index
never has) left only its options: ``:start-after: __spread_start__`` in the text the model reads.

- A directive that pulls in something the page does not hold (a file, an image, a table of
  contents, raw output), or whose content is built only under a condition (``{only}``,
  ``{ifconfig}``), is dropped, in either fence, in a block quote, list item or footnote too; so
  are MyST's ``%`` comment lines, in ``.md`` pages, and comments, a code fence in them included
  (drop_hidden_blocks).
- An admonition or container (note, warning, dropdown, tab-item, …) becomes its text: its
  argument when that is text (a title, a first line), then its body, options gone, its headings
  bold titles (as MyST shows them: they start no section).
- Any other directive is code (``{code-block} python``, ``{eval-rst}``, Quarto's ``{python}`` and
  ``{mermaid}``): it stays a code fence, in its language; a known directive loses its options. In
  ``{eval-rst}``, reStructuredText's hidden directives (``.. only::``) and comments go too.
- A ``:::{name}`` fence keeps its lines (the chunker keeps such a callout whole), options gone;
  one of a directive not on the page goes whole.
- A role keeps its text: ``{ref}`Ray Data <data>``` → ``Ray Data``, ``{class}`ray.data.Dataset``` →
  `` `ray.data.Dataset` ``.
"""

from __future__ import annotations

import re

from app.corpus.chunker import match_heading
from app.corpus.fences import closes_fence, code_spans, fence_after, fence_marker, split_fenced

_COLON_FENCE = re.compile(r"^ {0,3}(:{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_DIRECTIVE_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,}|:{3,})[ \t]*\{([\w:-]+)\}(.*)$")  # the argument is stripped after
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
# A role is `{name}` right before an inline code span of single backticks (fences.code_spans, so
# a `{name}` inside code is never taken for one), and never after a word, `$`, `\` or `/`
# (`/users/{id}` in code wrapped across lines, `\textbf{x}`).
_ROLE_NAME = re.compile(r"(?<![\w$\\/])\{([A-Za-z][\w:-]*)\}\Z")
_YAML_OPTIONS = re.compile(r"^[ \t]*---[ \t]*\n(?:.*\n)*?[ \t]*---[ \t]*\n")

# Directives whose content is not on the page (build-time includes, images, navigation), and
# content built only under a condition (`{only} internal`, `{ifconfig}`): the public site may never
# show it, and the index must not either.
_SHOWN_ONLY_UNDER_A_CONDITION = frozenset({
    "only", "ifconfig",
    "todo",  # Sphinx shows it only with todo_include_todos
})
_NOT_ON_THE_PAGE = _SHOWN_ONLY_UNDER_A_CONDITION | {
    "literalinclude", "include", "image", "toctree", "raw", "contents", "autosummary", "automodule",
    "autoclass", "autofunction", "automethod", "autoattribute", "autodata", "plot",
}
# Directives whose body is text the reader reads (admonitions, containers, tabs, cards, tables).
_TEXT = frozenset({
    "note", "tip", "hint", "important", "warning", "caution", "danger", "error", "attention", "seealso",
    "admonition", "dropdown", "tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card",
    "topic", "sidebar", "margin", "versionadded", "versionchanged", "deprecated", "button-ref",
    "button-link", "div", "container", "epigraph", "pull-quote", "figure", "table", "list-table",
    "glossary", "rubric",
})
# Of those, the ones whose argument is not text the reader sees (a path, a label, a layout, a tag).
_ARGUMENT_NOT_SHOWN = frozenset({
    "figure", "button-ref", "button-link", "grid", "grid-item", "div", "container", "tab-set",
})
# Any other directive is code: `{code-block} python`, `{testcode}`, `{eval-rst}`, Quarto's `{python}`.
_CODE_WITH_LANGUAGE_ARGUMENT = frozenset({"code-block", "code", "sourcecode", "code-cell"})
# Directives known to take options; an unknown one's `:word:` lines are its content (a YAML cell).
_WITH_OPTIONS = _NOT_ON_THE_PAGE | _TEXT | _CODE_WITH_LANGUAGE_ARGUMENT | {
    "testcode", "testoutput", "doctest", "testsetup", "jupyter-execute", "ipython", "eval-rst", "math",
}
# Roles shown as a link's text rather than as code.
_LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "download", "any", "external"})


def directive_name(first_line: str) -> str | None:
    """The directive a fence opens (```` ```{note} ```` → ``note``), or None for a plain fence."""
    match = _DIRECTIVE_FENCE.match(first_line.rstrip("\r\n"))
    return _name(match.group(2)) if match else None


def _name(written: str) -> str:
    """A directive's or role's name without its domain: ``py:class`` → ``class``."""
    return written.split(":")[-1].lower()


def _body(lines: list[str], name: str) -> str:
    """The directive's body: the lines after its opening, without the options that lead it (as
    `:name: value` lines or a `---` YAML block) and the closing fence, when there is one."""
    marker = _DIRECTIVE_FENCE.match(lines[0].rstrip("\r\n")).group(1)  # type: ignore[union-attr]
    body = lines[1:]
    if body and body[-1].strip() and set(body[-1].strip()) == {marker[0]} and len(body[-1].strip()) >= len(marker):
        body = body[:-1]
    if name not in _WITH_OPTIONS:
        return "".join(body)
    start = 0
    while start < len(body) and _OPTION.match(body[start].rstrip("\r\n")):
        start += 1
    text = "".join(body[start:])
    yaml = _YAML_OPTIONS.match(text) if start == 0 else None
    return text[yaml.end():] if yaml else text


def _as_title(line: str) -> str:
    body = line.rstrip("\r\n")
    heading = match_heading(body)
    return f"**{heading[1]}**{line[len(body):]}" if heading else line


def _headings_as_titles(text: str) -> str:
    """MyST shows a heading inside a directive as a bold title, not a section: it must not start
    a section (nor take an anchor) here either. Code inside keeps its `#` lines."""
    return "".join(
        segment.text if segment.is_code else "".join(_as_title(line) for line in segment.text.splitlines(keepends=True))
        for segment in split_fenced(text)
    )


def directive_text(fence: str) -> tuple[str, bool]:
    """A whole directive code fence (```` ``` ```` or ``~~~``, from its opening line to its closing
    fence; fences.split_fenced finds them) as what the reader sees, and whether that is code.
    Options and markup are gone; a directive whose content is not on the page gives ''."""
    lines = fence.splitlines(keepends=True)
    match = _DIRECTIVE_FENCE.match(lines[0].rstrip("\r\n"))
    assert match is not None, "not a directive fence"
    marker, name, argument = match.group(1), _name(match.group(2)), match.group(3).strip(" \t")
    if name in _NOT_ON_THE_PAGE:
        return "", False
    body = _body(lines, name)
    if name in _TEXT:
        shown = [argument] if argument and name not in _ARGUMENT_NOT_SHOWN else []
        shown.append(_headings_as_titles(body).strip("\n"))
        # Blank lines around it: a tab's title never runs into the tab before it.
        return "\n" + "\n\n".join(part for part in shown if part) + "\n\n", False
    language = (argument.split() or [""])[0] if name in _CODE_WITH_LANGUAGE_ARGUMENT else name
    if body and not body.endswith("\n"):
        body += "\n"
    return f"{marker}{language}\n{body}{marker}\n", True


# reStructuredText's explicit markup: `.. name:: argument`, a target `.. _label:`, a footnote or
# citation `.. [1]`, a substitution `.. |name|`; anything else after `..` is a comment.
_RST_EXPLICIT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+(.*))?$")
_RST_DIRECTIVE = re.compile(r"([\w:-]+)::")
_RST_NOT_COMMENT = re.compile(
    r"[\w:-]+::"  # a directive
    r"|_(?:`[^`]+`|[^`:\s][^:]*):(?:\s|$)|__(?:\s|$)"  # a target `_name: url`, an anonymous one
    r"|\[[^\]\s]+\](?:\s|$)"  # a footnote or citation `[1]`
    r"|\|[^|\s][^|]*\|(?:\s|$)"  # a substitution `|name|`
)


def _shown_rst(lines: list[str]) -> list[int]:
    """The numbers of an ``{eval-rst}`` body's lines the site may show: not those of a directive
    shown only under a condition (``.. only:: internal``) or of a comment (``.. a note``), each
    with its indented block. The rest stays code, as written (``.. autoclass:: ray.data.Dataset``
    names what the section is about)."""
    shown: list[int] = []
    hidden: int | None = None  # the indent of the hidden block's opening line
    for number, line in enumerate(lines):
        bare = line.rstrip("\r\n")
        # docutils indents with any whitespace (a no-break space too): counted as one column each.
        indent = len(bare) - len(bare.lstrip())
        if hidden is not None:
            if not bare.strip() or indent > hidden:
                continue
            hidden = None
        explicit = _RST_EXPLICIT.match(bare)
        if explicit:
            rest = explicit.group(2) or ""
            directive = _RST_DIRECTIVE.match(rest)
            conditional = directive is not None and _name(directive.group(1)) in _SHOWN_ONLY_UNDER_A_CONDITION
            if conditional or not _RST_NOT_COMMENT.match(rest):
                hidden = indent
                continue
        shown.append(number)
    return shown


def _explicit_title(inner: str) -> str | None:
    """"Text <target>" (MyST's explicit title) → "Text"; None without one. Found from the last `<`,
    not by a regex, which took quadratic time on a long run of spaces."""
    opening = inner.rfind("<")
    if not inner.endswith(">") or opening < 1 or not inner[opening - 1].isspace() or ">" in inner[opening + 1 : -1]:
        return None
    return inner[:opening].rstrip()


def _role_text(name: str, inner: str) -> str:
    titled = _explicit_title(inner)
    text = (titled if titled is not None else inner).lstrip("~!")
    return text if _name(name) in _LINK_ROLES else f"`{text}`"


def clean_roles(prose: str) -> str:
    """Roles as their text: ``{ref}`Ray Data <data>``` → ``Ray Data``; a code role stays inline
    code: ``{class}`ray.data.Dataset``` → `` `ray.data.Dataset` ``. Inline code stays as it is."""
    out: list[str] = []
    last = 0
    for start, end in code_spans(prose):
        role = _ROLE_NAME.search(prose, max(last, start - 80), start)
        if role is None or prose[start + 1] == "`":  # plain inline code, or code of ``double`` backticks
            continue
        out += [prose[last : role.start()], _role_text(role.group(1), prose[start + 1 : end - 1])]
        last = end
    return "".join(out) + prose[last:]


def drop_colon_fence_options(prose: str) -> str:
    """The option lines that follow a ``:::{name}`` opening of a known directive (the fence itself
    stays: a callout is kept whole by the chunker)."""
    out: list[str] = []
    in_options = False
    for line in prose.splitlines(keepends=True):
        if in_options and _OPTION.match(line.rstrip("\r\n")):
            continue
        match = _DIRECTIVE_FENCE.match(line.rstrip("\r\n"))
        in_options = bool(match and match.group(1)[0] == ":" and _name(match.group(2)) in _WITH_OPTIONS)
        out.append(line)
    return "".join(out)


# A MyST comment: a line starting with `%` (MyST never shows it, and a reviewer's note there must
# not reach the index), in `.md` pages only: MDX has comments of its own, and there `%` starts
# text ("%APPDATA%", a shell prompt in <pre>).
_MYST_COMMENT = re.compile(r"^ {0,3}%")
# Containers whose lines the other passes take for prose: one level of block quote (with the one
# space after its `>` that CommonMark takes with it), a list item's marker, a footnote's label.
_BLOCKQUOTE = re.compile(r"^ {0,3}> ?")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)")
# A line that starts a block of its own rather than wrapping the paragraph before it (so do the
# HTML blocks that may interrupt a paragraph: _html_block's but a lone tag).
_BLOCK_START = re.compile(
    r"^ {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>|#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|:{3,}|\[\^[^\]\s]+\]:|%"
    r"|\([^)]*\)=[ \t]*$|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$)"
)
# Lines wrapped lazily are followed this far in a row; past that the item ends (a hostile page of
# nested items and endless lazy lines would be read again at every level).
_MAX_LAZY_LINES = 50
_FOOTNOTE = re.compile(r"^ {0,3}\[\^[^\]\s]+\]:")  # a footnote's text: its lines indented 4 columns
# Containers inside containers are read this deep for hidden text; deeper ones are dropped (a
# hostile page of thousands of `>` must not exhaust the stack; no docs page nests that far).
_MAX_CONTAINER_DEPTH = 16
# Comments over several lines are hidden here, line by line, whatever they hold: the prose pass
# (mdx._drop_between) alone would show a code fence in one, as split_fenced cuts the comment there.
# In a `.md` page an HTML comment counts where HTML is raw: in an HTML block as CommonMark starts
# and ends it (_html_block; a fence there is HTML too), and on the line where an earlier comment
# closes (`--> <!-- more`). In MDX, which has no raw HTML nor indented code, a comment counts on a
# line starting with `{/*` or `<!--`, at any indentation. A comment in a paragraph is the prose
# pass's; `{/*` in a `.md` page is text.
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|"
    "dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|"
    "menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|"
    "title|tr|track|ul"
)
_HTML_RAW = re.compile(r"^ {0,3}<(pre|script|style|textarea)(?=[ \t>]|$)", re.IGNORECASE)  # to its closing tag
_ANY_RAW_CLOSE = r"</(?:pre|script|style|textarea)>"
_RAW_CLOSE = {
    kind: re.compile(pattern, re.IGNORECASE)
    for kind, pattern in (("pre", _ANY_RAW_CLOSE), ("textarea", _ANY_RAW_CLOSE),
                          ("script", r"</script>"), ("style", r"</style>"))
}
_HTML_BLOCK_TAG = re.compile(rf"^ {{0,3}}</?(?:{_BLOCK_TAGS})(?=[ \t>]|/>|$)", re.IGNORECASE)  # to a blank line
# Any other tag alone on its line (to a blank line). `<img …> text` is a paragraph.
_HTML_ATTRIBUTE = r"""[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?"""
_HTML_LONE_TAG = re.compile(
    rf"^ {{0,3}}(?:<[A-Za-z][A-Za-z0-9-]*(?:{_HTML_ATTRIBUTE})*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
_MDX_COMMENT_LINE = re.compile(r"^[ \t]*(?:\{[ \t]*/\*|<!--)")
_OPENS = {False: re.compile(r"<!--(-?>)?"), True: re.compile(r"<!--(-?>)?|(\{[ \t]*/\*)")}  # key: MDX comments
_CLOSES = {"html": re.compile(r"--!?>"), "mdx": re.compile(r"\*/(?:[ \t]*\})?")}
# CommonMark's line endings, and no others: str.splitlines also breaks at U+2028, form feeds, …,
# which would end a `%` comment where MyST does not.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _indent(line: str) -> int:
    """The columns of a line's leading spaces and tabs (a tab runs to the next multiple of 4)."""
    columns = 0
    for char in line:
        if char == " ":
            columns += 1
        elif char == "\t":
            columns += 4 - columns % 4
        else:
            break
    return columns


def _dedent(line: str, width: int) -> str:
    """The line without its first `width` columns of indentation (a tab split into spaces)."""
    columns = 0
    for position, char in enumerate(line):
        if columns >= width or char not in " \t":
            return " " * (columns - width) + line[position:]
        columns += 1 if char == " " else 4 - columns % 4
    return " " * max(columns - width, 0)


def _unquote(line: str) -> str:
    """A block quote's line without its `>` and the one column of space after it; a tab there
    counts for the columns it runs to, one of them taken (`>\t:::` is indented two)."""
    marker = _BLOCKQUOTE.match(line)
    assert marker is not None
    rest = line[marker.end():]
    if marker.group(0).endswith(">") and rest.startswith("\t"):
        column = marker.end()  # the tab's column
        rest = " " * (4 - column % 4 - 1) + rest[1:]
    return rest


def _closes(bare: str, char: str, length: int) -> bool:
    """Whether a line closes a hidden fence of `length` × `char`, as CommonMark and MyST close it
    (indented less than four columns). Code fences keep fences.closes_fence, as split_fenced reads
    them, which also takes a deeper closing line: ending code early hides more, never less."""
    stripped = bare.strip(" \t")
    return _indent(bare) < 4 and len(stripped) >= length and set(stripped) == {char}


def drop_hidden_blocks(text: str, *, myst_comments: bool, fences_are_code: bool = True) -> tuple[str, bool]:
    """``text`` without what the built site never shows: a fence of a directive not on the page
    (``:::{only}`` … ``:::``, ```` ```{only} ```` … ```` ``` ````), reStructuredText's hidden
    directives and comments in ``{eval-rst}``, comments whatever they hold (in HTML blocks, or on a
    line of their own in MDX: see _BLOCK_TAGS) and ``<style>``/``<script>`` blocks, and, with
    ``myst_comments``, MyST's ``%`` comment lines; in block quotes, list items and footnotes too
    (``> :::{only} internal``, ``- % note``), whose lines the other passes take for prose. A fence
    closes as MyST closes it: at the first line of at least as many colons (or backticks) indented
    less than four columns (code fences inside do not count), or at the end of its block quote,
    list item or page. Outside such a block a code fence is code: a ``:::{only}`` shown in an
    example opens nothing, unless ``fences_are_code`` is False (for directives nested past the depth
    mdx.py unwraps, whose fences are never read).

    Also whether a comment is left open at the end of ``text``: the site hides what follows it."""
    lines = _LINE.findall(text)
    shown, open_comment, _ = _shown_lines(lines, myst_comments, 0, fences_are_code)
    return _join_shown(lines, shown), open_comment is not None


def _join_shown(lines: list[str], shown: Shown) -> str:
    """The shown lines as text. Where a list item or footnote ends with its code fence open, the
    site ends the code too, but the prose pass's split_fenced, which knows no items, would run it to
    the end of the page, and keep every comment after it as code: a closing line is put there,
    when split_fenced (followed here line by line over the same text) has a fence open then, and
    only then, so that it never opens one."""
    out: list[str] = []
    marker: str | None = None  # the fence split_fenced has open
    for number, part in shown:
        if part is _ITEM_END:
            # Each shown part keeps its line's ending: only the page's last line may have none, and
            # then nothing follows for the fence to run into.
            if marker is not None and out and out[-1].endswith(("\n", "\r")):
                out.append(marker + "\n")
                marker = None
            continue
        piece = lines[number] if part is None else part
        out.append(piece)
        if marker is not None or "`" in piece or "~" in piece:  # on most lines no fence can open
            for line in piece.splitlines(keepends=True):  # as split_fenced splits
                marker = fence_after(marker, line)
    return "".join(out)


def _outside_comments(line: str, open_comment: str | None, mdx: bool) -> tuple[str, str | None]:
    """`line` less the comments in it, and the kind of comment still open at its end; `open_comment`:
    the one open where it starts; `mdx`: `{/*` opens one too. `<!-->` and `<!--->` close as they
    open, as in a browser."""
    bare = line.rstrip("\r\n")
    shown: list[str] = []
    position = 0
    while True:
        if open_comment is not None:
            closing = _CLOSES[open_comment].search(bare, position)
            if closing is None:
                break
            if open_comment == "mdx" and not closing.group(0).endswith("}"):
                shown.append("{")  # `{/* note */ 'shown'}`: the comment was in an expression, which goes on
            position, open_comment = closing.end(), None
        opening = _OPENS[mdx].search(bare, position)
        if opening is None:
            shown.append(bare[position:])
            break
        shown.append(bare[position:opening.start()])
        position = opening.end()
        if not opening.group(1):  # an empty HTML comment is closed already
            open_comment = "mdx" if opening.group(0)[0] == "{" else "html"
    text = "".join(shown)
    if text == bare:  # no comment on the line
        return line, open_comment
    # What follows a comment on its line is raw HTML, shown as text: never a fence opening.
    if fence_marker(text) is not None or _DIRECTIVE_FENCE.match(text):
        text = ""
    return text + line[len(bare):] if text.strip(" \t") else line[len(bare):], open_comment


def _container(lines: list[str], first: int) -> tuple[int, list[str], bool] | None:
    """(end, inner lines, whether it is a footnote) of the block quote, list item or footnote
    starting at `first`, its markers or indentation taken off; None when no container starts there."""
    bare = lines[first].rstrip("\r\n")
    if _BLOCKQUOTE.match(bare):
        end = first + 1
        while end < len(lines) and _BLOCKQUOTE.match(lines[end]):
            end += 1
        return end, [_unquote(line) for line in lines[first:end]], False
    footnote = (marker := _FOOTNOTE.match(bare)) is not None
    if marker is not None:
        width = 4
    elif (marker := _LIST_ITEM.match(bare)) is not None:
        after = _indent(" " * marker.end() + bare[marker.end():]) - marker.end()  # spaces after the marker
        width = marker.end() + (after if 1 <= after <= 4 else 1)  # the item's content column
    else:
        return None
    end = last = first + 1
    lazy = 0  # lazy lines in a row
    # Only a paragraph's line (or an open HTML block's) is wrapped lazily: not a fence's, a heading's.
    block, paragraph = _item_block(None, False, bare[marker.end():].lstrip(" \t"))
    while end < len(lines):
        line = lines[end].rstrip("\r\n")
        # Less indented, a line ends the item, unless it wraps a paragraph's line (lazily).
        lazy = lazy + 1 if line.strip(" \t") and _indent(line) < width else 0
        if lazy and (not paragraph or lazy > _MAX_LAZY_LINES or not lines[end - 1].strip(" \t\r\n")
                     or _starts_block(line)):
            break
        if not lazy:
            block, paragraph = _item_block(block, paragraph, _dedent(line, width))
        end += 1
        if line.strip(" \t"):
            last = end
    rest = lines[first][marker.end():]
    inner = [rest.lstrip(" \t") if footnote else _dedent(" " * marker.end() + rest, width)]
    return last, inner + [_dedent(line, width) for line in lines[first + 1 : last]], footnote


def _item_block(
    block: tuple[str, str] | None, paragraph: bool, line: str
) -> tuple[tuple[str, str] | None, bool]:
    """What is open in a list item after its `line`, as far as a lazy line needs it: the block
    (("fence", its marker: backticks, tildes or a colon directive's colons), ("html", the kind of
    HTML block), or None) and whether a line may follow lazily: after a paragraph's line or in an
    HTML block (a fence line in an HTML block or comment opens no fence; a line indented four
    columns past no paragraph is indented code)."""
    if block is not None and block[0] == "fence":
        return (None if closes_fence(line, block[1]) else block), False
    if block is not None:  # an HTML block: a comment ends at its close, a tag at a blank line
        # A line may follow it lazily: an HTML element left open runs on in the browser, past the
        # item (a `<script>`, a comment), so the item had better hold the line than show it.
        kind = block[1]
        if kind == "comment":
            return (None if _CLOSES["html"].search(line) else block), True
        if kind == "tag":  # ("lone" is never opened here: a lone tag wraps on as a paragraph's line)
            return (block, True) if line.strip(" \t") else (None, False)
        return (None if _raw_block_end(kind, line) is not None else block), True
    if not line.strip(" \t"):
        return None, False
    if _indent(line) >= 4:
        return None, paragraph  # a paragraph's continuation, or indented code
    start = line.lstrip(" \t")[:1]
    if start in ("`", "~") and (marker := fence_marker(line)) is not None:
        return ("fence", marker), False
    if start == ":" and (colons := _COLON_FENCE.match(line)) is not None:
        return ("fence", colons.group(1)), False
    if start == "<" and (kind := _html_block(line)) is not None and kind != "lone":
        if kind == "comment" and _CLOSES["html"].search(line, line.index("<!--") + 4):
            return None, False
        return ("html", kind), True
    if start == "#" and _HEADING.match(line):
        return None, False
    return None, True


def _starts_block(line: str) -> bool:
    """Whether a line starts a block rather than continuing the paragraph before it."""
    return bool(_BLOCK_START.match(line)) or _html_block(line) not in (None, "lone")


def _html_block(bare: str) -> str | None:
    """The kind of HTML block the line starts, as CommonMark reads it: "comment" (ends at `-->`),
    "pre", "script", "style", "textarea" (end at a closing tag), "tag" or "lone" (a tag alone on its
    line; end at a blank line); None when it starts none (`<img src="x"> text`, an autolink: a
    paragraph). A lone tag starts one even in a paragraph, where CommonMark would not: comments
    after it are hidden (the safe reading)."""
    if bare.lstrip(" ").startswith("<!--") and _indent(bare) < 4:
        return "comment"
    if (raw := _HTML_RAW.match(bare)) is not None:
        return raw.group(1).lower()
    if _HTML_BLOCK_TAG.match(bare):
        return "tag"
    return "lone" if _HTML_LONE_TAG.match(bare) else None


def _raw_block_end(kind: str, bare: str) -> int | None:
    """Where the closing tag of a raw HTML block of `kind` ends on the line (CommonMark ends `<pre>`
    and `<textarea>` at any of the four; a browser hides a script or style to its own); None when
    the line does not close it, or the block is not raw ("tag" ends before a blank line, "comment"
    where its comment closes)."""
    closing = _RAW_CLOSE.get(kind)
    found = closing.search(bare) if closing is not None else None
    return found.end() if found is not None else None


Shown = list[tuple[int, str | None]]  # (line number, the line's shown text; None: all of it)
_ITEM_END = "\x00item end\x00"  # in Shown: an item ends here with its code fence open (never page text: no NUL is)


def _shown_lines(
    lines: list[str], myst_comments: bool, depth: int, fences_are_code: bool, open_comment: str | None = None
) -> tuple[Shown, str | None, str | None]:
    """The lines shown, the kind of comment left open at the end, and the marker of a code fence
    left open there; `open_comment`: the kind of the comment open where they start."""
    shown: Shown = []
    hidden: tuple[str, int] | None = None  # the open hidden fence's character and length
    code: str | None = None  # the marker of the open code fence
    comment = open_comment  # the kind of the open comment
    # The site shows footnotes last, in order: a comment one leaves open hides the ones after it.
    footnote_comment: str | None = None
    html_block: str | None = None  # the kind of HTML block the line is in (_html_block)
    mdx = not myst_comments
    number = 0
    while number < len(lines):
        line = lines[number]
        bare = line.rstrip("\r\n")
        if hidden is not None:
            if _closes(bare, *hidden):
                hidden = None
            number += 1
            continue
        if code is not None:
            shown.append((number, None))
            if closes_fence(line, code):
                code = None
            number += 1
            continue
        if html_block in ("tag", "lone") and not bare.strip(" \t"):
            html_block = None
        if comment is None and not mdx and html_block in (None, "tag", "lone", "pre"):
            started = _html_block(bare)
            if html_block is None or started in ("script", "style"):  # a script in a <div> is hidden too
                html_block = started
        if html_block in ("script", "style"):  # never shown, to its closing tag
            if (end := _raw_block_end(html_block, bare)) is not None:
                html_block = None
                text, comment = _outside_comments(line[end:], None, mdx)
                if text.strip(" \t\r\n"):
                    shown.append((number, text))
            number += 1
            continue
        if comment is not None or html_block or (mdx and _MDX_COMMENT_LINE.match(bare)):
            was_open = comment is not None
            text, comment = _outside_comments(line, comment, mdx)
            if html_block is not None and (_raw_block_end(html_block, bare) is not None
                                           or (html_block == "comment" and comment is None)):
                html_block = None
            if was_open or comment is not None or text != line:  # a comment there: what it leaves
                shown.append((number, None if text == line else text))
                number += 1
                continue
            # No comment on it: read as any other line (a fence, a hidden directive, a container).
        if (container := _container(lines, number)) is not None:  # read as a page of its own
            end, inner, footnote = container
            if depth < _MAX_CONTAINER_DEPTH:
                kept, left_open, open_code = _shown_lines(inner, myst_comments, depth + 1, fences_are_code,
                                                          footnote_comment if footnote else None)
                shown += [(number + at, part) for at, part in kept]
                if open_code is not None:  # its code ends with it: _join_shown may say so
                    shown.append((end - 1, _ITEM_END))
                if footnote:
                    footnote_comment = left_open
                else:  # a comment left open hides what follows
                    comment = left_open
            number = end
            continue
        # Deeper than 3 columns a line is indented code (or a paragraph's): no fence. MDX has no
        # indented code (a fence in a component is indented as deep as the component).
        shallow = _indent(bare) < 4
        code = fence_marker(line) if (shallow or mdx) and fences_are_code and not html_block else None
        match = _DIRECTIVE_FENCE.match(bare) if shallow else None
        name = _name(match.group(2)) if match else None
        # MyST refuses `:::{eval-rst}` (a colon fence is for directives with Markdown content): the
        # site shows nothing there.
        if match and (name in _NOT_ON_THE_PAGE or (name == "eval-rst" and match.group(1)[0] == ":")):
            hidden, code = (match.group(1)[0], len(match.group(1))), None
            number += 1
            continue
        if match and match.group(1)[0] == ":" and name in _CODE_WITH_LANGUAGE_ARGUMENT and fences_are_code:
            code = match.group(1)  # `:::{code-block}` holds code too: a `<!--` in it opens nothing
        if code is not None and name == "eval-rst":
            end = next((n for n in range(number + 1, len(lines)) if closes_fence(lines[n], code)), len(lines))
            body = lines[number + 1 : end]
            shown += [(number, None), *((number + 1 + kept, None) for kept in _shown_rst(body))]
            shown += [(end, None)] if end < len(lines) else []
            number, code = end + 1, None
            continue
        if myst_comments and _MYST_COMMENT.match(bare):
            number += 1
            continue
        shown.append((number, None))
        number += 1
    return shown, comment, code
