"""What a rendered page shows, as blocks of Markdown, read by the parser its site's renderer uses.

- CommonMark/GFM and MDX pages (Mintlify, Docusaurus, Nextra, …) are read by micromark, with MDX's
  own extensions for `.mdx`, in V8 (app/corpus/reader.py): raw HTML is parsed as a browser parses
  it and each block's text is its innerText, so comments of every spelling, `<script>`, `hidden`
  and `display:none` show nothing.
- MkDocs pages are read by Python-Markdown with the site's extensions (python_markdown.py), and
  that HTML by the same browser reading.
- VitePress pages are read by markdown-it-py configured as VitePress configures markdown-it
  (vitepress_markdown.py), and that HTML by the same browser reading.
- MyST pages (Sphinx) are read by markdown-it-py configured as myst-parser configures it, rendered
  to HTML here with what Sphinx shows of each directive (myst.py), and that HTML is read by the same
  browser reading.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.field_list import fieldlist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.substitution import substitution_plugin

from app.corpus import myst, myst_classes, myst_config_options, myst_rst, python_markdown
from app.corpus.markdown_it_bounds import bounded, myst_role
from app.corpus.mdbook_markdown import render_mdbook
from app.corpus.myst import Build
from app.corpus.myst_notebook import cell_metadata, drop_removed_markdown_cells, removes_source
from app.corpus.parse_time import TimeLimitExceeded, in_time
from app.corpus.reader import Admonitions, Block, Reading, read_html, read_markdown
from app.corpus.reference_targets import directive_caption, rst_labels
from app.corpus.rst import render_rst
from app.corpus.sphinx_roles import shown_role
from app.corpus.vitepress_markdown import component_slots, render_vitepress

__all__ = ["Block", "Reading", "read_page"]

# Containers nest this deep at most; markdown-it leaves deeper content out (hides it). No docs
# page nests that far.
MAX_NESTING = 64
_MAX_DIRECTIVE_DEPTH = 8  # directives inside directives; deeper ones show nothing (hostile pages)
# `{{ name }}`s pasted into one page, and their values' characters, at most: a value naming
# another several times pastes exponentially many (myst-parser pastes them all, and Sphinx never
# ends); such a page is not read (compose skips it with this error).
_MAX_SUBSTITUTIONS = 100_000
_MAX_SUBSTITUTED_CHARS = 10_000_000

# A page is MyST when it uses MyST's own syntax: a directive fence (```` ```{note} ````, `:::{tip}`),
# a `%` comment line, a role (``{ref}`x` ``) or a target line (`(label)=`), in a quote or a list
# too. Used where the site's configuration does not say (compose passes `myst` when it does):
# read as MyST, a CommonMark page loses at most a line starting with `%` (the safe reading).
# Three searches, each from its first character (a line's start is the `\n` before it, given one
# before the page): the engine skips to that character at once, where one pattern of alternatives
# starting `^` was tried at every character (claude-docs: 2 % of its compose).
_CONTAINERS = r"\n[ \t>*+\-\d.)]*"
_MYST_SYNTAX = (re.compile(rf"{_CONTAINERS}(?:(?:`{{3,}}|~{{3,}}|:{{3,}})[ \t]*\{{[\w:-]+\}}|%)"),
                re.compile(r"\n\([\w:.-]+\)=[ \t]*$", re.MULTILINE))
_MYST_ROLE = re.compile(r"\{[\w:+-]+\}`")


def is_myst(text: str) -> bool:
    lines = "\n" + text
    return _MYST_ROLE.search(text) is not None or any(syntax.search(lines) is not None for syntax in _MYST_SYNTAX)


# --- MyST: markdown-it-py as myst-parser configures it ------------------------------------------

@cache
def _myst_parser(substitution: bool = False, dollarmath: tuple[bool, ...] | None = None,
                 attrs: tuple[bool, bool] = (False, False), fieldlist: bool = False, colon_fence: bool = True) -> MarkdownIt:
    # Emphasis is not parsed: it hides nothing, and its markers stay in the text as written.
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").disable("emphasis")
    bounded(md)
    if colon_fence:  # the site's extension (Build.colon_fence)
        md.use(colon_fence_plugin)
    md.use(footnote_plugin, inline=False).use(deflist_plugin).use(myst_block_plugin)
    md.inline.ruler.before("backticks", "myst_role", myst_role)
    if substitution:  # the site enables it (myst_enable_extensions): `{{ name }}`
        md.use(substitution_plugin)
    # `[text]{.cls}` and a `{.cls}` line over a block, as myst-parser reads them (mdit-py-plugins):
    # their classes are on the HTML, where a stylesheet may hide them (myst-probes `attrs.md`).
    if attrs[0]:
        md.use(attrs_plugin, spans=True)
    if attrs[1]:  # on a heading, its section's; on a fence, the fence's (myst_classes)
        md.use(attrs_block_plugin).core.ruler.push("block_attributes", myst_classes.apply_block_attributes)
    # `{rst-class} cls` puts its classes on the next element, where a stylesheet may hide them.
    md.core.ruler.push("rst_class", myst_classes.apply_rst_classes)
    md.core.ruler.push("nb_removed_cells", drop_removed_markdown_cells)  # a text notebook's `remove-cell`s
    if fieldlist:  # `:name: value` lines, the page's leading ones its metadata (myst.drop_docinfo)
        md.use(fieldlist_plugin).core.ruler.push("docinfo", myst.drop_docinfo)
    if dollarmath is not None:  # `$x$`, `$$ … $$ (label)`, with conf.py's options (myst.DMATH_OPTIONS)
        md.use(dollarmath_plugin, **dict(zip(myst.DMATH_OPTIONS, dollarmath, strict=True)))
    # Footnotes as the old writer kept them (`[^1]: text`), their back links left out.
    rules = {"fence": _render_fence, "colon_fence": _render_fence, "myst_role": _render_role,
             "heading_open": _render_heading, "heading_close": _render_heading, "paragraph_open": _render_paragraph,
             "substitution_inline": _render_substitution, "substitution_block": _render_substitution,
             "footnote_ref": lambda self, tokens, idx, *_: f"[^{_label(tokens[idx])}]",
             "footnote_open": _render_footnote, "footnote_block_open": lambda *_: "<div>",
             "footnote_block_close": lambda *_: "</div>", "footnote_close": lambda *_: "</div>",
             # Math as written (the TeX), its label left out: Sphinx shows the equation's number.
             "math_inline": lambda self, tokens, idx, *_: html.escape(f"${tokens[idx].content}$"),
             "math_inline_double": lambda self, tokens, idx, *_: html.escape(f"$${tokens[idx].content}$$"),
             "math_block": _render_math_block, "math_block_label": _render_math_block}
    for hidden in ("myst_target", "myst_line_comment", "myst_block_break", "hr", "footnote_anchor"):
        rules[hidden] = lambda *_: ""
    for name, rule in rules.items():
        md.add_render_rule(name, rule)
    return md


def _label(token: Token) -> str:
    return str(token.meta.get("label", token.meta.get("id", 0) + 1))


def _render_footnote(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    env["footnote_label"] = f"[^{_label(tokens[idx])}]: "  # written at the start of its first paragraph
    return "<div>"


def _render_paragraph(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    return self.renderToken(tokens, idx, options, env) + html.escape(env.pop("footnote_label", ""))


def _render_math_block(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    tex = tokens[idx].content.strip("\n")
    return "<p>" + html.escape("$$\n" + tex + "\n$$") + "</p>\n"


def _render_role(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    content = token.content
    if (span := myst_classes.role_span(env["build"].roles, token.meta["name"], content)) is not None:
        return span  # a role the page defines (`.. role:: name`): its text in a span of its classes
    shown = shown_role(token.meta["name"], content, env["build"], links=False)
    return f"<code>{html.escape(shown.text)}</code>" if shown.kind == "code" else html.escape(shown.text)


def _render_heading(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    # An underlined heading stays text in its section (sections start at `#` headings, as
    # documented); in a directive a heading is a bold title, as MyST shows it.
    if token.markup in ("=", "-"):
        return "<p>" if token.nesting == 1 else "</p>\n"
    if token.nesting == 1 and env.get("in_directive"):
        return f"<{token.tag} data-title>"
    return self.renderToken(tokens, idx, options, env)


# myst-parser's REGEX_DIRECTIVE_START: a value starting so is read as blocks even inline.
_DIRECTIVE_START = re.compile(r"^[\s]{0,3}([`]{3,10}|[~]{3,10}|[:]{3,10})\{")


def _render_substitution(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """`{{ name }}` as myst-parser renders it: its value read as MyST (inline within a paragraph);
    nothing for a name with no known value, a Jinja expression, or one within its own value."""
    token, build = tokens[idx], env["build"]
    # myst-parser sets `env` (Sphinx's build environment) over any substitution of that name.
    value = dict(build.substitutions or ()).get(token.content) if token.content != "env" else None
    used = env.get("substituting", frozenset())
    if value is None or token.content in used or len(used) >= _MAX_DIRECTIVE_DEPTH:
        return ""
    pasted = env["pasted"]
    pasted[0], pasted[1] = pasted[0] + 1, pasted[1] + len(value)
    if pasted[0] > _MAX_SUBSTITUTIONS or pasted[1] > _MAX_SUBSTITUTED_CHARS:
        raise ValueError(f"its MyST substitutions paste more than {_MAX_SUBSTITUTIONS:,} values or "
                         f"{_MAX_SUBSTITUTED_CHARS:,} characters (one value naming another many times?)")
    used = used | {token.content}
    if token.type == "substitution_inline" and not _DIRECTIVE_START.match(value):
        return str(_myst_parser(True, env["build"].dollarmath, env["build"].attrs).renderInline(value, {**env, "substituting": used}))
    return _render_myst(value, build, depth=env["depth"], substituting=used, pasted=pasted)


def _title_html(title: str, env: EnvType) -> str:
    """A directive's title or a code caption as the page writes it: MyST reads it as inline
    Markdown, so raw HTML in it is HTML (a hidden span or a comment shows nothing); without any,
    the text as written (its Markdown kept, as in the chunk text)."""
    if "<" not in title:
        return html.escape(title)
    return str(_myst_parser(env["build"].substitutions is not None, env["build"].dollarmath, env["build"].attrs).renderInline(title, env))


def _code(language: str, content: str) -> str:
    """A code block in `language`: the reader keeps a language of at most 40 word characters, `.+#-`
    (reader.js `blocks`, as for any page); the rest of a fence's info is never shown."""
    attribute = f' class="language-{html.escape(language)}"' if language else ""
    return f"<pre><code{attribute}>{html.escape(content)}</code></pre>\n"


def _classed_rst(rst: str, build: Build) -> str:
    """Shown reStructuredText as code, a directive of classes (`.. container:: internal-note`) in a
    `<div>` of them, a role the page defines in a span of its classes."""
    def code(text: str) -> str:
        return f'<pre><code class="language-eval-rst">{myst_classes.rst_code(text, build.roles)}</code></pre>\n'
    return "".join((f'<div class="{html.escape(" ".join(found))}">{code(text)}</div>' if found
                    else code(text)) for found, text in myst_rst.rst_classed(rst) if text.strip())


def _closed(token: Token, env: EnvType) -> bool:
    """Whether the fence has its closing line (one left open runs to the page's end)."""
    lines, (start, end) = env["lines"], token.map or (0, 0)
    last = lines[end - 1].strip() if end - start > 1 and end <= len(lines) else ""
    return last[:1] == token.markup[:1] and set(last) == {last[:1]} and len(last) >= len(token.markup)


def _render_fence(self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """A fence or directive as Sphinx shows it, in a `<div>` of the classes Sphinx gives it (its
    `:class:`, myst.classes) when the page names any: a stylesheet may hide them."""
    token = tokens[idx]
    info = token.info.strip()
    directive = myst.DIRECTIVE.fullmatch(info)
    if directive is None and token.type != "colon_fence":
        return _code(info.split()[0] if info else "", myst.shown_console(info.split()[0] if info else "", token.content))
    if directive is not None and not env["build"].defined(directive.group(1)):
        return ""  # Sphinx warns "Unknown directive type" and shows nothing of it
    name = myst.name(directive.group(1)) if directive else (info.split() or [""])[0].lower()
    argument = directive.group(2).strip() if directive else info[len(name):].strip()
    options_, body = myst.directive_options(token.content, name)
    shown = _render_directive(token, env, name, argument, options_, body, braced=directive is not None)
    found = myst.classes(name, argument, options_, env["build"].figure_classes) if shown and directive else []
    return f'<div class="{html.escape(" ".join(found))}">{shown}</div>\n' if found else shown


def _render_directive(token: Token, env: EnvType, name: str, argument: str, options_: dict[str, str], body: str,
                      *, braced: bool) -> str:
    """`braced`: written `{name}` (a MyST directive), not `:::name` (a colon fence's plain word)."""
    colons = token.type == "colon_fence"
    build, depth = env["build"], env["depth"]
    if name in ("code-cell", "raw-cell") and build.cells is not None and (
            not build.cells or depth or removes_source(cell_metadata(token.content), build.remove_code_source)):
        return ""  # not a notebook's cell (myst-nb warns), or its source removed
    if name == "raw":
        return myst.raw_html(argument, options_, body)
    # Sphinx builds an `{only}` whose expression holds as if it were not there (its headings too).
    if name == "only" and myst.only_built(argument, build) and depth < _MAX_DIRECTIVE_DEPTH:
        return _render_myst(body, build, depth=depth + 1, substituting=env["substituting"], pasted=env["pasted"])
    if name == "include" and build.include and depth < _MAX_DIRECTIVE_DEPTH and (included := build.include(
            argument, options_, build.including)) is not None:  # in Sphinx, MyST's include: the page's own MyST
        return _code(options_.get("code", ""), included[1]) if {"literal", "code"} & options_.keys() else _render_myst(
            included[1], replace(build, including=(*build.including, included[0])), depth=depth + 1,
            substituting=env["substituting"], pasted=env["pasted"])
    if name == "literalinclude" and build.literal_include and (code := build.literal_include(argument, options_)) is not None:
        # Under its caption; an empty one is the file's name as written (Sphinx).
        caption = options_["caption"] or argument if "caption" in options_ else ""
        return (f"<p>{_title_html(caption, env)}</p>" if caption else "") + _code(options_.get("language", ""), code)
    if name in myst_classes.RST_CLASS:  # its content in its classes; with none, the next element (apply_rst_classes)
        inner = _render_myst(body, build, depth=depth + 1, substituting=env["substituting"], pasted=env["pasted"])
        return f'<div class="{html.escape(myst_classes.class_list(argument))}">{inner}</div>\n' if body.strip() else ""
    # MyST refuses `:::{eval-rst}` (a colon fence is for Markdown content): nothing is shown.
    if myst.hidden(name, options_, build.todos) or (name == "eval-rst" and colons):
        return ""
    if name in myst.VERSION_NOTES and depth < _MAX_DIRECTIVE_DEPTH:
        return _version_note(name, argument, body, token, env)
    if name == myst_config_options.DIRECTIVE and depth < _MAX_DIRECTIVE_DEPTH:
        inner = _render_myst(body, build, depth=depth + 1, in_directive=_closed(token, env),
                             substituting=env["substituting"], pasted=env["pasted"])
        return myst_config_options.option_html(argument, options_, inner, lambda value: _title_html(value, env))
    body = myst.glossary_markdown(body) if name == "glossary" else body
    if name in myst.TEXT or (colons and name not in myst.CODE_WITH_LANGUAGE_ARGUMENT):
        if depth >= _MAX_DIRECTIVE_DEPTH:
            return ""
        # One left open runs to the end of the page on the site: then its headings stay sections.
        closed = _closed(token, env)
        inner = _render_myst(body, build, depth=depth + 1, in_directive=closed,
                             substituting=env["substituting"], pasted=env["pasted"])
        shown = argument if argument and name not in myst.ARGUMENT_NOT_SHOWN else ""
        title = f"<p>{_title_html(shown, env)}</p>" if shown else ""
        parted = myst_classes.parts_html(name, title, body, options_, lambda text: _render_myst(
            text, build, depth=depth + 1, in_directive=closed, substituting=env["substituting"], pasted=env["pasted"]))
        if parted is not None:  # sphinx-design's `:class-title:`, `:class-body:`, … on their parts
            return f"<div>{parted}</div>\n"
        if not colons or not closed:
            return f"<div>{title}{inner}</div>\n"
        # A `:::` callout stays one block (the chunker keeps it whole), its argument when shown.
        marker = f"{{{name}}}" if braced else name
        if "<" in shown:  # its HTML as the browser shows it
            shown = " ".join(block.text for block in read_html(title).blocks)
        return f'<div data-callout="{html.escape(marker)}" data-title="{html.escape(shown)}">{inner}</div>\n'
    if name == "eval-rst":  # reStructuredText as code, with the HTML its `.. raw:: html` writes
        return "".join(piece if kind == "html" else _classed_rst(piece, build) for kind, piece in myst_rst.shown_rst(body, build))
    if name == "code-cell" and "load" in options_:  # MyST-NB shows the file's code in place of the cell's
        body = (build.literal_include(options_["load"], {}) if build.literal_include else None) or ""
        if not body:
            return ""
    language = (argument.split() or [""])[0] if name in myst.CODE_WITH_LANGUAGE_ARGUMENT else name
    # A code block's caption is shown above it (Sphinx).
    caption = f"<p>{_title_html(options_['caption'], env)}</p>" if options_.get("caption") else ""
    return caption + _code(language, body if "no-trim-doctest-flags" in options_ else myst.shown_console(language, body))


def _version_note(name: str, argument: str, body: str, token: Token, env: EnvType) -> str:
    """A version note as Sphinx writes it: its label and version, then the rest of its argument
    and its text, "Added in version 1.2: The fast option." (recorded from Sphinx:
    tests/data/myst-version-notes.shown.json). Never a callout: Sphinx shows no box title."""
    version, _, rest = argument.partition(" ")
    label = f"{myst.VERSION_NOTES[name]} {html.escape(version)}"
    inner = _render_myst(body, env["build"], depth=env["depth"] + 1, in_directive=_closed(token, env),
                         substituting=env["substituting"], pasted=env["pasted"])
    if rest.strip():
        return f"<div><p>{label}: {_title_html(rest.strip(), env)}</p>{inner}</div>\n"
    if inner.startswith("<p>"):
        return f"<div><p>{label}: {inner[3:]}</div>\n"
    return f"<div><p>{label}{':' if inner.strip() else '.'}</p>{inner}</div>\n"


def _render_myst(text: str, build: myst.Build, *, depth: int = 0, in_directive: bool = False,
                 substituting: frozenset[str] = frozenset(), pasted: list[int] | None = None) -> str:
    """`pasted`: the page's substitutions pasted so far, and their characters (shared by its parts)."""
    env: dict[str, Any] = {"lines": text.split("\n"), "depth": depth, "in_directive": in_directive,
                           "build": build, "substituting": substituting, "pasted": [0, 0] if pasted is None else pasted}
    return str(_myst_parser(build.substitutions is not None, build.dollarmath, build.attrs, build.fieldlist,
                            build.colon_fence).render(text, env))


def myst_directives(text: str) -> tuple[str | None, list[tuple[str, str]]]:
    """A MyST page's first `#` heading and its top-level directives, (name, content) each, as
    myst-parser's markdown-it reads them: the `{toctree}`s of a Sphinx site (app/corpus/site.py)."""
    title, found = None, []
    tokens = _myst_parser().parse(text.replace("\x00", ""))
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1" and title is None:
            title = tokens[index + 1].content.strip()
        elif token.type in ("fence", "colon_fence") and (match := myst.DIRECTIVE.fullmatch(token.info.strip())):
            found.append((myst.name(match.group(1)), token.content))
    return title, found


@cache
def _title_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark")
    md.inline.ruler.before("backticks", "myst_role", myst_role)
    return md


def _shown_title(inline: str) -> str:
    """A heading's words as a reference to it shows them: its markup (emphasis, code, links, a
    role's text) read, raw HTML left out."""
    words = []
    for token in _title_parser().parseInline(inline)[0].children or []:
        if token.type in ("text", "code_inline"):
            words.append(token.content)
        elif token.type == "myst_role":
            words.append(myst.role_text(token.content))
        elif token.type in ("softbreak", "hardbreak"):
            words.append(" ")
    return " ".join("".join(words).split())


def myst_sections(text: str) -> tuple[tuple[str | None, str | None], list[tuple[str, str]]]:
    """A MyST page's first `#` heading and first heading of any level, and each label (`(label)=`
    right before a heading: consecutive ones name the same section) with the title of the section it
    names, as myst-parser's markdown-it reads them; a figure's, table's or code block's caption for
    its `:name:` or a label before it, and an `{eval-rst}` block's labels (reference_targets.py). A
    label before anything else names nothing (Sphinx finds no title)."""
    h1, title, labels, pending = None, None, [], []
    # Every underline read as setext (markdown_it_bounds skips those the hr rule reads the same when
    # rendering: here the heading's title counts).
    tokens = _myst_parser().parse(text.replace("\x00", ""), {"underlined": True})
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1:
            continue
        if token.type == "myst_target":
            pending.append(token.content)
        elif token.type == "heading_open":
            heading = _shown_title(tokens[index + 1].content)
            title = heading if title is None else title
            h1 = heading if h1 is None and token.tag == "h1" else h1
            labels += [(label, heading) for label in pending]
            pending = []
        elif token.type in ("fence", "colon_fence") and (directive := myst.DIRECTIVE.fullmatch(token.info.strip())):
            name = myst.name(directive.group(1))
            options, body = myst.directive_options(token.content, name)
            caption = directive_caption(name, directive.group(2).strip(), options, body)
            named = [*pending, *([options["name"]] if options.get("name") else [])]
            labels += rst_labels(body)[1] if name == "eval-rst" else [(label, _shown_title(caption)) for label in named] if caption else []
            pending = []
        else:
            pending = []
    return (h1, title), labels


# --- every dialect ------------------------------------------------------------------------------


def read_page(text: str, *, mdx: bool, rst: bool = False, myst: bool | None = None, mintlify: bool = False,
              comments: bool = False, mkdocs: str | None = None, front_matter: bool = True,
              docusaurus: bool = False, vitepress: bool = False, starlight: bool = False,
              admonitions: Admonitions | None = None, build: Build | None = None,
              files: Mapping[str, str] | None = None, css: str = "",
              linked: Callable[[tuple[str, ...]], str] | None = None,
              modules: Callable[[tuple[str, ...]], dict[str, str | None]] | None = None,
              link: Callable[[str], str] | None = None, page_data: Mapping[str, Any] | None = None,
              math: bool = False, mermaid: bool = False, mdbook: str | None = None) -> Reading:
    """The page body as its site shows it: `mdx` for an `.mdx` page (or any page of a Mintlify
    site, which builds `.md` as MDX too), `myst` for a MyST page (None: when it uses MyST's syntax),
    `rst` for a Sphinx page in reStructuredText (rst.py), `mintlify` for Mintlify's math (`math`: a Nextra site's `latex`; `mermaid`: its diagrams), `comments` for HTML comments in MDX (Docusaurus), `mkdocs` for
    a page of an MkDocs site (the Python-Markdown extensions it is read with, python_markdown.py),
    whose first `key: value` lines MkDocs takes for meta data when it had no `front_matter`, and
    its `--8<--` snippets read from `files` (the source's tree); `docusaurus` for a page of a
    Docusaurus site (code block titles as it shows them; `admonitions` its page's, its defaults
    when not given); `vitepress` for a page of a VitePress site (markdown-it, vitepress_markdown.py;
    `page_data` its front matter, which its template may show); `starlight` for a page of an Astro
    Starlight site (code block titles as Expressive Code shows them; `page_data` its front matter, which an
    MDX page's `{frontmatter.x}` shows); `build`: what a Sphinx site's conf.py and
    the page's front matter say of its MyST (substitutions, tags); `css` the site's own stylesheet;
    `linked` the text of the source's stylesheets the page links by these URLs (`<link
    rel=stylesheet href="/x.css">`, `@import`), which the browser applies too, and `modules` the
    text of the site's modules an MDX page imports components from: the page is read again with
    them; `link` where each link target written on the page goes (app/corpus/page_links.py). NUL
    characters are dropped first: they are never text (the reader marks link targets with them)."""
    text = text.replace("\x00", "")
    if mkdocs is not None and not mdx:
        html, error, unresolved = python_markdown.render(
            text if front_matter else python_markdown.without_meta(text), mkdocs, files)
        if html is None:
            return Reading(error=error or "not rendered")
        return replace(_read_linked(lambda sheets, _: read_html(html, sheets, link), css, linked),
                       unresolved_snippets=unresolved)
    if vitepress and not mdx:
        styles: list[dict[str, object]] = []
        rendered, slots = render_vitepress(text, styles), component_slots(text, modules) if modules is not None else {}
        return _read_linked(lambda sheets, _: read_html(rendered, sheets, link, vue=True, slots=slots, frontmatter=page_data,
                                                        styles=styles), css, linked)
    if mdbook is not None and not mdx:  # pulldown-cmark, as mdBook renders (`mdbook`: its hidelines)
        rendered = render_mdbook(text, mdbook)
        return _read_linked(lambda sheets, _: read_html(rendered, sheets, link), css, linked)
    if rst:
        try:
            rendered, not_read = in_time(render_rst, text, build or Build())
        except TimeLimitExceeded as exc:
            return Reading(error=str(exc))
        return replace(_read_linked(lambda sheets, _: read_html(rendered, sheets, link), css, linked), not_read=tuple(not_read))
    if not mdx and (is_myst(text) if myst is None else myst):
        try:
            rendered = in_time(_render_myst, text, replace(build or Build(), roles=myst_classes.page_roles(text)))
        except TimeLimitExceeded as exc:
            return Reading(error=str(exc))
        return _read_linked(lambda sheets, _: read_html(rendered, sheets, link), css, linked)
    # Docusaurus renders `:::note` callouts; Mintlify renders math.
    return _read_linked(lambda sheets, given: read_markdown(
        text, mdx=mdx or mintlify, math=mintlify or math, directives=not mintlify, comments=comments,
        code_titles="mintlify" if mintlify else "docusaurus" if docusaurus else "starlight" if starlight else "",
        css=sheets, modules=given,
        admonitions=(admonitions or Admonitions()) if docusaurus and not mintlify else None, link=link,
        frontmatter=page_data if starlight else None, mermaid=mermaid),
        css, linked, modules)


MODULE_DEPTH = 3  # modules imported by the modules a page imports, and so on


def _read_linked(read: Callable[[str, dict[str, str | None]], Reading], css: str,
                 linked: Callable[[tuple[str, ...]], str] | None,
                 modules: Callable[[tuple[str, ...]], dict[str, str | None]] | None = None,
              link: Callable[[str], str] | None = None) -> Reading:
    """`read` with the site's `css`, then again with the stylesheets the page links that `linked`
    finds in the source, and the modules it imports components from that `modules` gives (the
    reader fetches nothing: it names the URLs and modules it saw)."""
    reading = read(css, {})
    if reading.error is not None:
        return reading
    extra = linked(reading.links) if reading.links and linked is not None else ""
    given = modules(reading.modules) if reading.modules and modules is not None else {}
    if not extra and not given:
        return reading
    reading = read(f"{css}\n{extra}" if extra else css, given)
    # A component the page imports may read modules of its own (a constants module: its labels),
    # named only once the first is given: asked for in turn, MODULE_DEPTH levels at most.
    for _ in range(MODULE_DEPTH):
        if reading.error is not None or modules is None or not (wanted := [m for m in reading.modules if m not in given]):
            break
        given = {**given, **modules(tuple(wanted))}
        reading = read(f"{css}\n{extra}" if extra else css, given)
    return reading
