"""The page reader: app/corpus/js/reader.js (micromark, MDX, GFM, parse5, innerText; built by
scripts/build_page_reader.sh) run in V8 through py_mini_racer, with no Node at run time.

The bundle is loaded once per process, on first use; V8 runs one call at a time, so calls are
serialized by a lock (a parse takes milliseconds)."""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any, NamedTuple

_LOCK = threading.Lock()
_CONTEXT: Any = None
# A page is read in this much time and memory at most, or not indexed (with a warning): micromark
# is quadratic on some hostile input (50,000 `{/*` took 135 s). The largest page of the shared
# corpora reads in well under a second.
MAX_SECONDS = 10.0
MAX_MEMORY = 1 << 30
V8_FLAGS = ("--no-turbofan",)


# Docusaurus 3's admonition keywords (@docusaurus/mdx-loader's DefaultAdmonitionOptions, 3.10.2).
DOCUSAURUS_ADMONITIONS = ("secondary", "info", "success", "danger", "note", "tip", "warning", "important", "caution")


@dataclass(frozen=True)
class Admonitions:
    """What Docusaurus makes a box of on a page: a `:::name` container directive whose name is one of
    its docs plugin's `admonitions` keywords (none: `admonitions: false`); any other is a `<div>`
    of its text. `legacy_titles`: `:::note Title` is read as `:::note[Title]` (its
    markdown.mdx1Compat.admonitions, on by default)."""

    keywords: tuple[str, ...] = DOCUSAURUS_ADMONITIONS
    legacy_titles: bool = True
    # The code comments its code blocks leave out, a line each (themeConfig.prism.magicComments'
    # directives; None: its default ones, `highlight-next-line`, `highlight-start`, `highlight-end`).
    magic_comments: tuple[str, ...] | None = None
    # `markdown.mermaid`: a ```mermaid fence is a diagram (theme-mermaid draws it).
    mermaid: bool = False
    # The converters of @docusaurus/remark-plugin-npm2yarn when the folder's content plugin adds it:
    # a ```` ```bash npm2yarn ```` fence is then tabs of the command converted (js/src/docusaurus-npm2yarn.js).
    npm2yarn: tuple[str, ...] | None = None
    # The [language, label] pairs of docusaurus-remark-plugin-tab-blocks when the folder's content
    # plugin adds it: a run of ```` ```js tab ```` fences is then tabs (js/src/docusaurus-tab-blocks.js).
    tab_blocks: tuple[tuple[str, str], ...] | None = None


class Block(NamedTuple):
    """A block of the shown page: `heading` (of `level`), `code` (a fence or a whole `:::` callout,
    never cut), or `text` (cut between paragraphs when its section is long)."""

    text: str
    kind: str = "text"
    level: int = 0
    shown: str = ""  # a heading's text as the page shows it (`text` is Markdown: code spans, links)
    # The text its site makes a heading's anchor of, where not what it shows (an Astro MDX heading's:
    # a component's attributes left out), slugged as written; None: from `shown`.
    slugged: str | None = None


@dataclass
class Reading:
    blocks: list[Block] = field(default_factory=list)
    # Components no rule of the reader knows (their children shown, a guess): name -> uses
    unknown_components: dict[str, int] = field(default_factory=dict)
    error: str | None = None  # the parser's message when it rejects the page (not indexed)
    unresolved_snippets: tuple[str, ...] = ()  # MkDocs: `--8<--` paths the tree does not hold
    # An OpenAPI page (read_openapi_page): "truncated" (fields cut at the cap), "content" (its
    # x-mint.content does not parse as MDX: not shown)
    faults: tuple[str, ...] = ()
    # The stylesheets the page links or imports by a URL the reader cannot fetch (not `data:`), as
    # written: compose reads those that are files of the source (Site.linked_css) and reads again.
    links: tuple[str, ...] = ()
    # MDX: the modules of the site it imports components from (`/snippets/x.jsx`, `./x`), as
    # written, not given to the reader: compose gives their text (Site.modules) and reads again.
    modules: tuple[str, ...] = ()
    # The site's own components read as hiding their children (their code never renders them):
    # name -> uses with children, whose text is not indexed
    hiding_components: dict[str, int] = field(default_factory=dict)
    # A Sphinx reStructuredText page: the directives Sphinx shows by importing the project (autodoc's).
    not_read: tuple[str, ...] = ()


def _bundle(name: str = "reader.js") -> str:
    return resources.files("app.corpus").joinpath(f"js/{name}").read_text(encoding="utf-8")


# The OpenAPI part (src/openapi.js, a quarter of the code), evaluated in the context before the
# first OpenAPI call only: a site without specs does not pay its load (0.02 s).
_OPENAPI_BUNDLE = "reader-openapi.js"
_openapi_in: Any = None  # the context it was evaluated in


@functools.cache
def _context() -> Any:
    global _CONTEXT
    if _CONTEXT is None:
        from py_mini_racer import DEFAULT_V8_FLAGS, MiniRacer, init_mini_racer

        # V8's top tier (TurboFan) off: a compose calls the reader a few hundred times, and
        # TurboFan's compiles cost more than its code saves there (cold claude-docs 0.98 -> 0.78 s
        # of V8 CPU, mintlify 2.8 -> 2.3; ten passes over the same pages, still no slower without
        # it: design/page-reader.md, session 28). Maglev stays the optimizing tier. Flags are the
        # process's: set before its first context (a no-op if one was made already).
        init_mini_racer(flags=(*DEFAULT_V8_FLAGS, *V8_FLAGS), ignore_duplicate_init=True)

        # MiniRacer binds to the event loop running where it is made, if any, and a call with a time
        # limit on that loop fails (and the loop may be gone: asyncio.run's, a test's). Made in a
        # thread of its own, it runs its own loop thread, and a call from any thread waits on it.
        made: list[Any] = []
        maker = threading.Thread(target=lambda: made.append(MiniRacer()), name="docschat-page-reader")
        maker.start()
        maker.join()
        context = made[0]
        source = _bundle()
        # Ending with a plain value: evaluating the bundle as the last expression hung the
        # conversion of its result (shared/notes/mdx-in-v8.md).
        context.eval(source + "\n;1")
        atexit.register(context.close)  # its event loop thread would otherwise keep the process
        _CONTEXT = context
    return _CONTEXT


def prepare() -> None:
    """Makes the context and loads the bundle in a thread of its own, unless made already: what the
    caller does meanwhile (compose: git, the site's configuration) overlaps it (0.07 s)."""
    def make() -> None:
        with _LOCK, contextlib.suppress(Exception):  # a failure is raised again by the first call
            _context()
    if _CONTEXT is None:
        threading.Thread(target=make, name="docschat-page-reader-start", daemon=True).start()


def _call(function: str, *arguments: object) -> dict[str, Any]:
    """The bundle's answer, or {"error": message} (with the place the parser gives) when it rejects
    the page or runs out of time or memory."""
    from py_mini_racer import JSOOMException, JSTimeoutException

    global _openapi_in
    with _LOCK:
        if function.startswith("openapi") and _openapi_in is not _context():
            _context().eval(_bundle(_OPENAPI_BUNDLE) + "\n;1")
            _openapi_in = _context()
        try:
            answer = _context().call(f"docschatReader.{function}", *arguments, timeout_sec=MAX_SECONDS,
                                     max_memory=MAX_MEMORY)
        except (JSTimeoutException, JSOOMException) as exc:
            what = "time" if isinstance(exc, JSTimeoutException) else "memory"
            return {"error": f"not read within the page reader's {what} limit "
                             f"({MAX_SECONDS:g} s, {MAX_MEMORY >> 20} MB)"}
    data: dict[str, Any] = json.loads(answer)
    if "error" in data and data.get("line"):
        place = f"{data['line']}:{data['column']}" if data.get("column") else f"line {data['line']}"
        data["error"] = f"{place}: {data['error']}"
    return data


def _reading(data: dict[str, Any], link: Callable[[str], str] | None = None) -> Reading:
    """The reader's answer; each link target it wrote between NULs (`](\0target\0)`) given to `link`
    (compose: where the site publishes the page a file link names), as written without it."""
    if "error" in data:
        return Reading(error=data["error"])
    return Reading([Block(_linked(block[1], link), block[0], block[2], *block[3:]) for block in data["blocks"]],
                   data.get("unknown", {}), links=tuple(data.get("links", ())), modules=tuple(data.get("modules", ())),
                   hiding_components=data.get("hiding", {}))


def _linked(text: str, link: Callable[[str], str] | None) -> str:
    if "\0" not in text:
        return text
    pieces = text.split("\0")
    if len(pieces) % 2 == 0:  # not the reader's pairs: no target is rewritten
        return "".join(pieces)
    return "".join(piece if n % 2 == 0 or link is None else link(piece) for n, piece in enumerate(pieces))


def read_css_links(css: str) -> tuple[str, ...]:
    """The URLs a stylesheet imports (`@import`, read by css-tree), but `data:` ones, as written."""
    return tuple(_call("cssLinks", css).get("links", ()))


class Element(NamedTuple):
    """A component of an MDX page, `<Name a="b" />`, from `start` to `end` (offsets)."""

    name: str
    start: int
    end: int
    attributes: dict[str, Any]  # the plain-string values
    inline: bool  # inside a paragraph


@dataclass
class Uses:
    """An MDX page's default imports (name, from), import/export blocks, components (outermost
    first) and `{name}` expressions, read from its tree; offsets into `text`, the page as read."""

    text: str
    imports: list[tuple[str, str]] = field(default_factory=list)
    esm: list[tuple[int, int]] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    expressions: list[tuple[str, int, int]] = field(default_factory=list)
    placeholders: list[tuple[str, int, int]] = field(default_factory=list)  # a template's `${name}`
    error: str | None = None
    esm_default: list[bool] = field(default_factory=list)  # each ESM block: it holds an `export default`
    esm_names: list[list[str]] = field(default_factory=list)  # each ESM block: the names it binds
    layout_hides: bool = False  # its default export (the MDX layout) never shows its children


def read_uses(text: str, *, math: bool = False, directives: bool = False, comments: bool = False) -> Uses:
    data = _call("uses", text, {"math": math, "directives": directives, "comments": comments})
    if "error" in data:
        return Uses(text, error=data["error"])
    return Uses(data["text"], [tuple(i) for i in data["imports"]], [tuple(e) for e in data["esm"]],
                [Element(*e) for e in data["elements"]], [tuple(x) for x in data["expressions"]],
                esm_default=list(data.get("esmDefault", [])), esm_names=[list(n) for n in data.get("esmNames", [])],
                layout_hides=bool(data.get("layoutHides")),
                placeholders=[tuple(x) for x in data.get("placeholders", [])])


def read_markdown(text: str, *, mdx: bool, math: bool = False, directives: bool = False,
                  comments: bool = False, code_titles: str = "", css: str = "",
                  modules: dict[str, str | None] | None = None, admonitions: Admonitions | None = None,
                  link: Callable[[str], str] | None = None, frontmatter: Mapping[str, Any] | None = None,
                  mermaid: bool = False) -> Reading:
    """A Markdown (CommonMark + GFM) or, with `mdx`, an MDX 3 page as its site shows it; `math`
    for `$…$`/`$$…$$` (Mintlify), `directives` for `:::name` callouts (Docusaurus), `comments` for
    `<!-- … -->` in MDX (Docusaurus), `code_titles` for a code block's title as the framework it
    names shows it ("mintlify", "docusaurus"; "": none); `css` the site's own stylesheet, which
    every page links (its hiding rules apply as a page's `<style>`); `modules` the text of the
    modules it imports components from (an import's source → its text, None: not in the site);
    `admonitions` Docusaurus's, for a page of a Docusaurus site (None: every `:::name` is a box);
    `link` where each link target written on the page goes (app/corpus/page_links.py); `frontmatter`
    an Astro MDX page's front matter, which its `{frontmatter.x}` shows (values JSON cannot hold, a
    date, left out: the page shows them as JavaScript writes them, not read)."""
    boxes = {} if admonitions is None else {"admonitions": list(admonitions.keywords),
                                            "legacyTitles": admonitions.legacy_titles}
    if admonitions is not None and admonitions.magic_comments is not None:
        boxes["magicComments"] = list(admonitions.magic_comments)
    if mermaid or (admonitions is not None and admonitions.mermaid):  # a ```mermaid fence is drawn
        boxes["mermaid"] = True
    if admonitions is not None and admonitions.npm2yarn is not None:
        boxes["npm2yarn"] = list(admonitions.npm2yarn)
    if admonitions is not None and admonitions.tab_blocks is not None:
        boxes["tabBlocks"] = [list(pair) for pair in admonitions.tab_blocks]
    return _reading(_call("parse", text, {"mdx": mdx, "math": math, "directives": directives, "comments": comments,
                                          "codeTitles": code_titles, "css": css, "modules": modules or {}, **boxes,
                                          **({"frontmatter": json.loads(json.dumps(dict(frontmatter), default=lambda _: None))}
                                             if frontmatter else {})}), link)


def read_html(html: str, css: str = "", link: Callable[[str], str] | None = None, *, vue: bool = False,
              slots: Mapping[str, list[str]] | None = None, frontmatter: Mapping[str, Any] | None = None,
              styles: Sequence[Mapping[str, object]] = ()) -> Reading:
    """HTML (a MyST page rendered by markdown-it-py) as a browser shows it, with the site's `css`;
    `link` as read_markdown's. With `vue`, a VitePress page's HTML: rendered as Vue renders the
    page's template first (js/src/vue-template.js), each component of `slots` showing only the
    children its slots take (vitepress_markdown.component_slots), `frontmatter` the page's
    (`{{ $frontmatter.title }}`; as JSON: a date is its text), `styles` its `<style>` blocks
    (vitepress_markdown.render_vitepress: a scoped one as Vue scopes it, js/src/vue-scoped.js)."""
    data = json.loads(json.dumps(dict(frontmatter or {}), default=str))
    return _reading(_call("fromHtml", html, css, {"vue": vue, "slots": dict(slots or {}), "frontmatter": data,
                                                  "styles": [dict(style) for style in styles]}), link)


@dataclass
class ModuleValue:
    """What a JavaScript or TypeScript module exports, read from its literals (never run)."""

    value: Any = None
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, what is not a literal): left out
    error: str | None = None  # it does not parse, or exports no value


def read_module_value(text: str, *, typescript: bool, config: bool = False) -> ModuleValue:
    """The value of `module.exports = …` or `export default …` (a Docusaurus sidebars.js/.ts), from
    objects, arrays, strings, numbers, booleans and plain template literals; acorn parses it (with
    @sveltejs/acorn-typescript for TypeScript) and nothing of it runs (app/corpus/js/src/module-value.js).
    With `config` (a docusaurus.config.*), code stays in the value as `{"$code": what}`, and
    `require.resolve('./x')` and `path.join(__dirname, 'x')` read as the path `./x`."""
    data = _call("moduleValue", text, {"typescript": typescript, "config": config})
    if "error" in data:
        return ModuleValue(error=data["error"])
    if "missing" in data:
        return ModuleValue(error=f"no {data['missing']}")
    return ModuleValue(data["value"], [(int(line), str(what)) for line, what in data["skipped"]])


def read_openapi_spec(key: str, text: str, file: str) -> dict[str, Any]:
    """Loads an OpenAPI spec (JSON or YAML `text`, at `file` in the site) into the reader under
    `key` (app/corpus/js/src/openapi.js): {"pages": [...], "errors": [...]} (the pages Mintlify
    generates from it, and $refs it could not resolve), or {"error": why}."""
    return _call("openapiSpec", key, text, file)


def read_openapi_page(key: str, method: str, path: str, *, description: bool | str = True, content: bool = False,
                      text: str | None = None, file: str = "") -> Reading:
    """The blocks of the API page of the operation `method path` of the spec loaded under `key`:
    the operation's description first (`description` True), none (False), or that text instead (a
    generated page's, x-mint.metadata's); its x-mint.content after it with `content` (a generated
    page's body). Without the spec's `text` (and its `file`), an error "spec not loaded" when the
    reader does not hold it; with them, it is loaded first, in the same call."""
    options: dict[str, object] = {"description": description, "content": content}
    if text is not None:
        options |= {"text": text, "file": file}
    data = _call("openapiPage", key, method, path, options)
    faults = tuple(fault for fault, key in (("truncated", "truncated"), ("content", "contentError")) if data.get(key))
    return replace(_reading(data), faults=faults)
