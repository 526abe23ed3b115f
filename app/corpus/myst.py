"""MyST markup (Sphinx's Markdown): which directives the built page shows, and as what.

markdown-it-py and mdit-py-plugins read MyST's syntax (directive fences, ``%`` comments, targets,
roles: app/corpus/markdown.py); what a directive shows is Sphinx's, and is said here:

- A directive that pulls in something the page does not hold (a file, an image, a table of
  contents), or whose content is built only under a condition (``{ifconfig}``, ``{only}`` unless
  its expression is certainly true for an HTML build: ``only_built``), shows nothing.
- ``{raw} html`` is written into the page as it is, where the browser reads it (the reader's
  parse5 and innerText); raw output for another format shows nothing.
- ``{{ name }}``, with the ``substitution`` extension, shows the value conf.py's
  ``myst_substitutions`` or the page's front matter gives it (``Build``); anything else in braces
  (a Jinja filter, an attribute, a name with no literal value) shows nothing.
- An admonition or container (note, warning, dropdown, tab-item, …) shows its text: its argument
  when that is text (a title), then its body, options gone, its headings bold titles.
- Any other directive is code (``{code-block} python``, ``{eval-rst}``, Quarto's ``{python}``): a
  code fence in its language; a known directive loses its options. In ``{eval-rst}``,
  reStructuredText's hidden directives and comments go too, and ``.. only::`` and ``.. raw::`` are
  read as their MyST fences are (myst_rst.py).
- A role shows its text: ``{ref}`Ray Data <data>``` → ``Ray Data``, ``{class}`ray.data.Dataset``` →
  `` `ray.data.Dataset` ``; ``{ref}`data``` without a title shows the title of the section or
  document it names (app/corpus/myst_xref.py), its label when there is none.
"""

from __future__ import annotations

import html
import json
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from app.corpus.myst_config_options import role_key
from app.corpus.myst_notebook import is_text_notebook, removes_source
from app.corpus.myst_only import only_built as only_built  # a MyST page's `{only}`: myst_only.py

OPTION_LINE = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t](.*))?$")
_YAML_OPTIONS = re.compile(r"^[ \t]*---[ \t]*\n(?:.*\n)*?[ \t]*---[ \t]*\n")
# A fence's info string `{name} argument`, as myst-parser splits it: its first word is a directive
# when it opens with `{` and ends with `}`, whatever is between (`{my.directive}`, `{}`: unknown
# directives, which show nothing); `{only}internal` is a code block's language.
DIRECTIVE = re.compile(r"\{(\S*)\}((?:\s.*)?)", re.DOTALL)


@dataclass(frozen=True)
class Build:
    """What a Sphinx site's conf.py says of how its MyST pages show (app/corpus/site_code.py reads
    it with `ast`, never runs it)."""

    # The substitution extension's values ({{ name }} → value, as str() gives it); None when the
    # extension is off (then `{{ name }}` is text).
    substitutions: tuple[tuple[str, str], ...] | None = None
    # Tags conf.py may add or remove (`tags.add("internal")`); None: any (it uses `tags` otherwise).
    changed_tags: tuple[str, ...] | None = ()
    # The dollarmath extension's options (DMATH_OPTIONS, conf.py's `myst_dmath_…`); None when it is
    # off (then `$…$` is text, and an HTML comment in it a comment).
    dollarmath: tuple[bool, ...] | None = None
    # The title of what a `{ref}`, `{doc}` or `{any}` role without a title of its own names (the
    # role's name, its target), None when not found (app/corpus/myst_xref.py): set by compose per page.
    xref: Callable[[str, str], str | None] | None = field(default=None, repr=False, compare=False)
    # Where such a role leads (its page file relative to the page, #anchor): a `.rst` page's are links.
    xref_link: Callable[[str, str], str | None] | None = field(default=None, repr=False, compare=False)
    # What an `{include}` (its argument, options) pastes, within the parts `including` (the chain of
    # includes being read, each a path and its cut options): (part, text), None when nothing
    # (app/corpus/myst_include.py's PageIncludes.paste, set by compose per page: what the page may
    # read of the repository).
    include: Callable[[str, Mapping[str, str], tuple[str, ...]], tuple[str, str] | None] | None = field(
        default=None, repr=False, compare=False)
    including: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # The code a `{literalinclude}` (its argument, options) shows, None when nothing
    # (PageIncludes.literal, set by compose per page).
    literal_include: Callable[[str, Mapping[str, str]], str | None] | None = field(default=None, repr=False, compare=False)
    # The attrs_inline and attrs_block extensions (`[text]{.cls}`, a `{.cls}` line over a block):
    # on, their classes are on the HTML, where a stylesheet may hide them; off, they are text.
    attrs: tuple[bool, bool] = (False, False)
    # The colon_fence extension (`:::{note}`): off, a `:::` line is text, what follows it the page's
    # Markdown (myst-design `no-colon-fence.md`, myst-conf-options). On unless conf.py's literal list
    # or the page's front matter leaves it out.
    colon_fence: bool = True
    # The classes that hide a figure on the site (a `:figclass:`; theme_hiding's
    # sphinx_extensions_figure_classes): basic.css shows a figure over any other class rule.
    figure_classes: frozenset[str] = frozenset()
    # The directive names the site defines (app/corpus/sphinx_directives.py); None: any may be.
    directives: frozenset[str] | None = None
    # The role names it defines (site_roles); None: any may be.
    role_names: frozenset[str] | None = None
    # conf.py's numfig: on, `{numref}` shows the target's number, never its label (replaced_role).
    numfig: bool = False
    # conf.py's todo_include_todos: on, a `{todo}` shows (as an admonition); off (the default), nothing.
    todos: bool = False
    # The fieldlist extension (`:name: value` lines a field list): on, the page's leading one is its
    # metadata (docinfo), which Sphinx does not show (drop_docinfo); off, they are text.
    fieldlist: bool = False
    # MyST-NB (app/corpus/myst_notebook.py): None when it is not loaded; else whether the page is a
    # text notebook (for_page), whose top-level `{code-cell}`s alone show, and whether a cell's
    # source is removed unless its metadata says otherwise (conf.py's, then the page's).
    cells: bool | None = None
    remove_code_source: bool = False
    # The roles the page's reStructuredText defines, with the classes each writes
    # (app/corpus/myst_classes.py page_roles): set per page.
    roles: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)
    # conf.py's local intersphinx inventories (project, path), and what they hold ("ref project:label" → title).
    inventory_files: tuple[tuple[str, str], ...] = ()
    inventory: tuple[tuple[str, str], ...] = ()
    # myst_title_to_header: the front matter's `title` is the page's first heading; off (the
    # default), myst-parser keeps it as the page's metadata, shown nowhere on the built site.
    title_to_header: bool = False
    # sphinx.ext.extlinks' roles (name, base URL, caption) from conf.py's literal `extlinks` (sphinx_extlinks.py).
    extlinks: tuple[tuple[str, str, str | None], ...] = ()

    def defined(self, written: str) -> bool:
        """Whether the site defines the directive written so: Sphinx shows nothing of one it does
        not (myst-probes `directive-unknown.md`)."""
        return self.directives is None or written.lower() in self.directives

    def for_page(self, front: Mapping[str, Any]) -> Build:
        """With the page's own substitutions (front matter `myst: substitutions:`, or the deprecated
        top-level `substitutions:`), which win over conf.py's, as in myst-parser (which drops them
        all when a key is not a string). The page's `myst: enable_extensions:` replaces conf.py's (the
        extension on or off), and its `sub_delimiters` other than MyST's turn it off here, as
        conf.py's do."""
        build = self if self.cells is None else replace(  # MyST-NB's, from the page's front matter
            self, cells=is_text_notebook(front), remove_code_source=removes_source(front, self.remove_code_source))
        myst = front.get("myst") if isinstance(front.get("myst"), dict) else None
        page = myst.get("substitutions") if myst is not None else front.get("substitutions")
        substitutions, dollarmath, attrs = build.substitutions, build.dollarmath, build.attrs
        if myst is not None and "enable_extensions" in myst:  # each extension on or off, as listed
            listed = myst["enable_extensions"] if isinstance(myst["enable_extensions"], (list, tuple, set)) else ()
            substitutions = (substitutions or ()) if "substitution" in listed else None
            dollarmath = (dollarmath or DMATH_DEFAULTS) if "dollarmath" in listed else None
            attrs = ("attrs_inline" in listed, "attrs_block" in listed)
            build = replace(build, fieldlist="fieldlist" in listed, colon_fence="colon_fence" in listed)
        if myst is not None and isinstance(myst.get("title_to_header"), bool):
            build = replace(build, title_to_header=myst["title_to_header"])
        if myst is not None:
            if "sub_delimiters" in myst and myst["sub_delimiters"] not in (["{", "}"], ("{", "}")):
                substitutions = None
            dollarmath = dmath_options(myst, dollarmath, "dmath_")
        if substitutions is None or not isinstance(page, dict) or not all(isinstance(k, str) for k in page):
            return replace(build, substitutions=substitutions, dollarmath=dollarmath, attrs=attrs)
        merged = dict(substitutions) | {str(k): _written(v) for k, v in page.items()}
        return replace(build, substitutions=tuple((k, v) for k, v in merged.items() if v is not None),
                       dollarmath=dollarmath, attrs=attrs)


# The dollarmath extension's options as myst-parser passes them to mdit-py-plugins' plugin, with
# their defaults: `$$ … $$ (label)` takes a label (shown nowhere: the equation's number is),
# `$ x $` and `1$x$2` are math, `$$x$$` within a line is not.
DMATH_OPTIONS = ("allow_labels", "allow_space", "allow_digits", "double_inline")
DMATH_DEFAULTS = (True, True, True, False)


def dmath_options(values: Mapping[str, Any], options: tuple[bool, ...] | None, prefix: str) -> tuple[bool, ...] | None:
    """`options` with those of `values` (`{prefix}allow_labels`, …) that are booleans over them."""
    if options is None:
        return None
    return tuple(value if isinstance(value := values.get(prefix + name), bool) else option
                 for name, option in zip(DMATH_OPTIONS, options, strict=True))


_MAX_WRITTEN = 100_000


def _written(value: Any) -> str | None:
    """A front matter value as str() writes it (as Jinja does), or None when that would exceed
    _MAX_WRITTEN characters: YAML aliases make a list billions of items long in a few lines ("billion
    laughs"), written out even when no `{{ }}` names it. Each list or mapping is measured once."""
    sizes: dict[int, int] = {}

    def size(item: Any) -> int:
        if not isinstance(item, (list, tuple, dict, set)):
            return len(str(item))
        if id(item) not in sizes:
            sizes[id(item)] = 2 + _MAX_WRITTEN  # within itself (a YAML cycle): too long
            parts = [*item.keys(), *item.values()] if isinstance(item, dict) else list(item)
            total = 2
            for part in parts:
                total += size(part) + 4  # a separator and quotes
                if total > _MAX_WRITTEN:
                    break
            sizes[id(item)] = total
        return sizes[id(item)]

    try:
        return str(value) if size(value) <= _MAX_WRITTEN else None
    except RecursionError:  # nested deeper than Python writes
        return None


# Content built only under a condition (`{only} internal`, `{ifconfig}`): the public site may never
# show it, and the index must not either (an `{only}` certainly built for HTML is: only_built).
_SHOWN_ONLY_UNDER_A_CONDITION = frozenset({
    "only", "ifconfig",
    "todo",  # Sphinx shows it only with todo_include_todos
})
# Page machinery Sphinx shows nothing of: index entries, HTML meta tags (myst-parser refuses
# `{meta}`), authors (shown only with show_authors), LaTeX column specs, the highlight language;
# docutils' page header and footer (Sphinx's HTML writer drops them), the document's `<title>`, a
# default role or domain, the current module or program, a class for the next element (the
# myst-probes `directives-silent.md`: none of their text is in Sphinx's HTML page body).
_MACHINERY = frozenset({"index", "meta", "sectionauthor", "moduleauthor", "codeauthor", "tabularcolumns", "highlight",
                        "header", "footer", "title", "default-role", "default-domain", "currentmodule", "program",
                        "rst-class", "cssclass"})
# A video: sphinx-youtube-links' `youtube` draws a link labelled "▶ Watch on YouTube" (the same on
# every video; its title a tooltip: myst-canonical), sphinxcontrib-youtube's a player. Neither
# shows text of the page's own; read as code, its address was indexed.
_EMBEDS = frozenset({"youtube"})
NOT_ON_THE_PAGE = _SHOWN_ONLY_UNDER_A_CONDITION | _MACHINERY | _EMBEDS | {
    "literalinclude", "include", "image", "toctree", "raw", "contents", "autosummary", "automodule",
    "autoclass", "autofunction", "automethod", "autoattribute", "autodata", "plot",
}
# Directives whose body is text the reader reads: the admonitions (whose HTML Sphinx classes
# `admonition <name>`: classes()), containers, tabs, cards, tables.
_ADMONITIONS = frozenset({"note", "tip", "hint", "important", "warning", "caution", "danger", "error", "attention",
                          "seealso", "admonition"})
TEXT = _ADMONITIONS | {
    "dropdown", "tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card", "topic", "sidebar", "margin",
    "versionadded", "versionchanged", "deprecated", "versionremoved", "button-ref", "button-link", "div", "container",
    "epigraph", "pull-quote", "figure", "table", "list-table", "glossary", "rubric",
    "tabs", "tab", "group-tab",  # sphinx-tabs (and sphinx-inline-tabs' `tab`): a tab's label, then its panel
    # sphinx-design's other boxes (0.8): their `:class:` on their HTML, an `{aside}`'s or `{step}`'s
    # argument its title (myst-design `boxes.md`); `{tab-set-code}` holds code blocks.
    "aside", "steps", "step", "accordion", "card-header", "card-footer", "card-carousel", "tab-set-code",
    "centered",  # Sphinx's centered line: its argument
    "todo",  # shown only with todo_include_todos (Build.todos)
}
# Of those, the version notes, and the words Sphinx writes before their version and text ("Added in
# version 1.2: The fast option."; sphinx.domains.changeset's versionlabels, Sphinx 7.3 and later).
VERSION_NOTES = {"versionadded": "Added in version", "versionchanged": "Changed in version",
                 "deprecated": "Deprecated since version", "versionremoved": "Removed in version"}
# Of those, the ones whose argument is not text the reader sees (a path, a label, a layout, a tag).
ARGUMENT_NOT_SHOWN = frozenset({
    "figure", "button-ref", "button-link", "grid", "grid-item", "div", "container", "tab-set", "tabs",
    "card-carousel",  # its number of columns
})
# Any other directive is code: `{code-block} python`, `{testcode}`, `{eval-rst}`, Quarto's `{python}`.
CODE_WITH_LANGUAGE_ARGUMENT = frozenset({"code-block", "code", "sourcecode", "code-cell", "code-tab"})
# Directives known to take options; an unknown one's `:word:` lines are its content (a YAML cell).
_WITH_OPTIONS = NOT_ON_THE_PAGE | TEXT | CODE_WITH_LANGUAGE_ARGUMENT | {
    "testcode", "testoutput", "doctest", "testsetup", "testcleanup", "jupyter-execute", "ipython", "eval-rst",
    "math",
    "mermaid",  # sphinxcontrib-mermaid's :align:, :alt:, :caption:, :config:, :zoom: (structlog's docs)
    # docutils' and Sphinx's other directives with options (their `:class:` a stylesheet may hide:
    # myst-probes `class-options-more.md`), and sphinx.ext.graphviz's.
    "parsed-literal", "line-block", "csv-table", "compound", "highlights", "hlist", "centered", "productionlist",
    "sectnum", "graphviz", "graph", "digraph", "inheritance-diagram",
    "config:option",  # sphinx-config-options' fields (app/corpus/myst_config_options.py)
}
# Roles shown as a link's text rather than as code.
LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "download", "any", "external"})


# Domain names kept whole: sphinx-config-options' `{config:option}` is not Sphinx's `{option}` (a
# program's command-line option).
KEEPS_DOMAIN = frozenset({"config:option"})


def name(written: str) -> str:
    """A directive's or role's name without its domain: ``py:class`` → ``class``."""
    return written.lower() if written.lower() in KEEPS_DOMAIN else written.split(":")[-1].lower()


def _option_value(value: str) -> str:
    """An option's value as myst-parser's option parser reads it, a YAML scalar: a quoted one's
    quotes are not part of it (structlog's `:start-after: "## Credits"`, checked with sphinx-build
    9.0.4, myst-parser 5.2.0); a double-quoted one's escapes read as JSON reads them."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            decoded = json.loads(value)
        except ValueError:
            return value[1:-1]
        return decoded if isinstance(decoded, str) else value[1:-1]
    return value


def directive_options(content: str, directive: str) -> tuple[dict[str, str], str]:
    """A directive's options (`:name: value` lines, or a `---` YAML block) and its body without
    them, for a directive known to take options; an unknown one's content is all body."""
    if directive not in _WITH_OPTIONS:
        return {}, content
    lines = content.splitlines(keepends=True)
    options: dict[str, str] = {}
    start = 0
    while start < len(lines) and (option := OPTION_LINE.match(lines[start].rstrip("\r\n"))):
        options[option.group(1).lower()] = _option_value((option.group(2) or "").strip())
        start += 1
    text = "".join(lines[start:])
    block = _YAML_OPTIONS.match(text) if start == 0 else None
    if block is None:
        return options, text
    return _yaml_options(block.group(0).splitlines()[1:-1]), text[block.end():]


def _yaml_options(lines: list[str]) -> dict[str, str]:
    """A `---` block's options, read as YAML as myst-parser reads them (`tags:` over lines of `- x`
    is a list: myst-probes `nb-cell-options.md`); when the block is not a YAML mapping, each
    `key: value` line as written."""
    try:
        read = yaml.safe_load("\n".join(lines))
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):  # a date like 2024-13-45 is a ValueError
        read = None
    if not isinstance(read, dict):
        return {key.strip().lower(): _option_value(value.strip())
                for key, _, value in (line.partition(":") for line in lines)}
    # A value as str() writes it (`['remove-input']`), bounded: YAML aliases make a list billions
    # of items long in a few lines (_written).
    return {str(key).lower(): "" if value is None else _written(value) or "" for key, value in read.items()}


def glossary_markdown(body: str) -> str:
    """A `{glossary}`'s content as the Markdown Sphinx reads of it: its Glossary directive takes
    each line at the margin as a term (` : classifier` and all after it not shown) and the indented
    lines under it as the term's definition, dedented and parsed as the page's Markdown (roles,
    nested directives); read whole, an indented definition would be an indented code block."""
    out: list[str] = []
    definition: list[str] = []
    for line in [*body.splitlines(keepends=True), "\n"]:
        if line.strip() and not line[0].isspace():
            out.append(textwrap.dedent("".join(definition)))
            definition.clear()
            if not line.startswith(".."):  # a reStructuredText comment: nothing
                out.append("\n" + line.split(" : ")[0].strip() + "\n\n")
        else:
            definition.append(line)
    return "".join(out) + textwrap.dedent("".join(definition))


# Sphinx's trim_doctest_flags (on unless conf.py or the directive's :no-trim-doctest-flags: says
# otherwise): a Python console block shows without its `# doctest: +FLAG` comments and
# `<BLANKLINE>` lines (sphinx.transforms.post_transforms.code, with sphinx.ext.doctest's expressions
# for them, copied: Sphinx is no dependency).
_BLANKLINE = re.compile(r"^\s*<BLANKLINE>", re.MULTILINE)
_DOCTEST_FLAGS = re.compile(r"[ \t]*#\s*doctest:.+$", re.MULTILINE)
_CONSOLE = frozenset({"pycon", "pycon3", "doctest"})
_PYTHON = frozenset({"py", "python", "py3", "python3", "default", ""})


def shown_console(language: str, code: str) -> str:
    """`code` as Sphinx shows it in a block of `language` (a directive's name when it has none)."""
    if language.lower() in _CONSOLE or (language.lower() in _PYTHON and code.startswith(">>>")):
        return _DOCTEST_FLAGS.sub("", _BLANKLINE.sub("", code))
    return code


# Cells and doctest blocks Sphinx runs but never shows: setup and cleanup blocks, and any block
# with `:hide:` (sphinx.ext.doctest) or a `remove-cell`/`remove-input` tag (MyST-NB, jupyter-book).
_NEVER_SHOWN = frozenset({"testsetup", "testcleanup"})
_HIDE_OPTION = frozenset({"testcode", "doctest", "testoutput"})
_REMOVING_TAGS = frozenset({"remove-cell", "remove_cell", "remove-input", "remove_input"})


def hidden(directive: str, options: dict[str, str], todos: bool = False) -> bool:
    """Whether the built page shows nothing of the directive (`todos`: conf.py's todo_include_todos)."""
    if directive == "todo" and todos:
        return False
    if directive in NOT_ON_THE_PAGE or directive in _NEVER_SHOWN:
        return True
    if directive in _HIDE_OPTION and "hide" in options:
        return True
    tags = re.findall(r"[\w-]+", options.get("tags", ""))
    return any(tag in _REMOVING_TAGS for tag in tags)


# Raw output (`.. raw::`, as ``{raw}``) shows as raw_html says; the page machinery shows nothing,
# nor do doctest's setup and cleanup blocks, nor a table of contents (its entries are page names;
# a shown one lists those pages' titles, a `:hidden:` one nothing: myst-probes `eval-rst-hidden.md`).
RST_NOT_SHOWN = _SHOWN_ONLY_UNDER_A_CONDITION | _MACHINERY | _NEVER_SHOWN | {"raw", "toctree"}


def rst_hidden(directive: str, options: Mapping[str, str], todos: bool = False) -> bool:
    """Whether `.. directive::` in `{eval-rst}`, with these option lines, shows nothing: as its MyST
    fence (`hidden`), but for autodoc, an image or an include, which stay as the code naming them."""
    if directive == "todo" and todos:
        return False
    return directive in RST_NOT_SHOWN or directive in _HIDE_OPTION and "hide" in options


def raw_html(argument: str, options: Mapping[str, str], content: str) -> str:
    """What ``{raw} argument`` writes into an HTML page: its content as it is when its formats name
    html (docutils' HTML writer), and it pulls in no file; the browser reads it (a comment, a script
    or a hidden element in it shows nothing). Another format's output shows nothing."""
    if "html" not in argument.lower().split() or {"file", "url"} & set(options) or not content.strip():
        return ""
    classes = html.escape(options.get("class", ""))
    return f'<div class="{classes}">{content}</div>\n' if classes else content + "\n"


# Roles that show the title of what they name when written without one: a section's (`{ref}`,
# `{any}`: a label), a document's (`{doc}`, `{any}`). Sphinx shows the target as written when it
# finds no title (it warns: "undefined label", "unknown document"), and so does docschat.
TITLE_ROLES = frozenset({"ref", "doc", "any"})


def explicit_title(inner: str) -> bool:
    """Whether a role's content gives its own title (`Text <target>`, Sphinx's explicit_title_re)."""
    return inner.endswith(">") and inner.rfind("<") >= 1


# Sphinx writes a directive's `:class:` option (sphinx-design's `:class-…:` ones too; a
# `{container}`'s or `{div}`'s argument) as classes of its HTML, beside its own (`admonition
# note`, `docutils container`), each as docutils' class_option makes it (`Internal_Note` is
# `internal-note`): a site's or page's stylesheet may hide them (myst-probes `class-options.md`).
# Both spellings are kept (more hidden, never less).
# Options classing one part of a box (a card's title, a dropdown's body): myst_classes.parts_html.
PART_OPTIONS = frozenset({"class-title", "class-label", "class-body", "class-content", "class-header", "class-footer"})
_OWN_CLASSES = {"container": ("docutils", "container"), "topic": ("topic",), "rubric": ("rubric",),
                "sidebar": ("sidebar",)}


def classes(directive: str, argument: str, options: dict[str, str], figure_hiding: frozenset[str] = frozenset()) -> list[str]:
    """The classes Sphinx gives the HTML of a directive, when its page names any ([] otherwise)."""
    # A figure's `:class:` is its image's, which shows no text; its `:figclass:` is the figure's, which
    # basic.css, under every theme, shows again (`figure.align-default {display: block}`) but for
    # `figure_hiding`'s classes (`!important` rules: myst-design `figures.md`).
    written = options.get("class", "") if directive != "figure" else " ".join(
        word for word in options.get("figclass", "").split() if word in figure_hiding)
    given = [*written.split(), *(word for key, value in options.items()
                                 if key.startswith("class-") and key not in PART_OPTIONS for word in value.split())]
    if directive in ("container", "div"):
        given += argument.split()
    if not given:
        return []
    own = ("admonition", directive) if directive in _ADMONITIONS else _OWN_CLASSES.get(directive, ())
    made = [re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-") for word in given]  # docutils' make_id
    return list(dict.fromkeys([*own, *given, *(word for word in made if word)]))


# Roles (as written, domain included) whose label shows nowhere: Sphinx shows the equation's number.
NUMBER_ROLES = frozenset({"eq", "math:numref"})
# `{sub-ref}`'s values myst-parser computes at build time (the page's word count, reading time, the
# build's date): not known here, shown as nothing.
_COMPUTED_SUBSTITUTIONS = frozenset({"wordcount-words", "wordcount-minutes", "today"})


# sphinx-design's icon roles (`{octicon}`check;1em;cls``, `{fab}`github``): an `<svg>` or an
# icon font's `<span>`, no text; the name, size and classes written show nowhere (myst-design
# `icons.md`). An icon name the extension does not know shows as an error in the build: lost.
ICON_ROLES = frozenset({"octicon", "fa", "fas", "fab", "far", "fa-solid", "fa-brands", "fa-regular",
                        *(f"material-{style}" for style in ("regular", "outlined", "round", "sharp", "twotone"))})


def replaced_role(written: str, content: str, numfig: bool) -> str | None:
    """What Sphinx shows in place of a role's text where it is not the text (a number, a count, an
    icon): "" for nothing, the title less its number's placeholders; None for any other role."""
    written = written.lower()
    if written in ICON_ROLES:
        return ""
    if written == "config:option":
        return role_key(content)
    if written == "sub-ref" and content.strip() in _COMPUTED_SUBSTITUTIONS:
        return ""
    if written in ("numref", "std:numref") and numfig:  # "Fig. 1": the label never shows
        return re.sub(r"%s|\{number\}|\{name\}", "", role_text(content)) if explicit_title(content) else ""
    return None


def role_text(inner: str) -> str:
    """What a role shows: the text of MyST's explicit title ("Text <target>" → "Text"), else its
    content, less a leading `~` or `!`. The title is found from the last `<`, not by a regex, which
    took quadratic time on a long run of spaces."""
    # Sphinx's explicit_title_re, `^(.+?)\s*<([^<]*?)>$`: no space is needed before the `<`.
    opening = inner.rfind("<")
    if explicit_title(inner):
        inner = inner[:opening].rstrip() or inner[:opening]
    return inner.lstrip("~!")


# What may stand before a page's metadata field list: docutils' DocInfo transform takes the first
# element that is not a comment or a target (nodes.PreBibliographic).
_BEFORE_DOCINFO = frozenset({"myst_line_comment", "myst_target", "myst_block_break", "front_matter"})


def drop_docinfo(state: Any) -> None:
    """A markdown-it core rule: with the fieldlist extension, a field list that opens the page is its
    metadata (docutils' DocInfo, which Sphinx keeps as the page's metadata and does not show; the
    myst-probes `fieldlist-docinfo.md`): its tokens are dropped."""
    tokens = state.tokens
    first = next((i for i, token in enumerate(tokens) if token.type not in _BEFORE_DOCINFO), None)
    if first is None or tokens[first].type != "field_list_open":
        return
    end = next((i for i in range(first + 1, len(tokens))
                if tokens[i].type == "field_list_close" and tokens[i].level == tokens[first].level), len(tokens) - 1)
    del tokens[first:end + 1]

