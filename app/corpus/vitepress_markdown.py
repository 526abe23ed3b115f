"""A VitePress page rendered to HTML as VitePress renders it (2.0.0-alpha.19, createMarkdownRenderer
in vitepress/dist/node), by markdown-it-py: that HTML is read by the browser reading (read_html).

VitePress reads Markdown with markdown-it (`html: true`), and what changes the text a reader sees is
configured here as it configures it:
- its containers (@mdit/plugin-container, VitePress's containerPlugin): `::: tip Title` … `:::`
  boxes titled TIP, INFO, WARNING, DANGER, NOTE, IMPORTANT, CAUTION (the title written after the
  name instead, read as inline Markdown), `details` a `<details>` whose summary is "Details" or
  the title, `raw` and `v-pre` their content as is, `code-group` its fences as tabs titled by the
  `[title]` of each fence's info (else its language);
- GitHub's alerts (`> [!TIP]`, gitHubAlertsPlugin): the marker shown as the box's title;
- Shiki's comment notation in code (`// [!code ++]`, `focus`, `highlight`, `error`, `warning`,
  `word:…`; @shikijs/transformers): the comment is not shown, a line holding only it not at all;
- `{…}` attributes (@mdit/plugin-attrs, vitepress_attrs.py): `text {hidden}` hides the paragraph;
- footnotes, tables, strikethrough, task lists (markdown-it's and its plugins').
The HTML is then a Vue template (`{{ }}`, `v-if`, …): the page reader renders it as Vue would
(read_html's `vue`, js/src/vue-template.js), so a code block carries `v-pre` as VitePress's does.
Emoji shortcodes are drawn (vitepress_emoji.py). Not done (design/page-reader.md, sessions 31,
32): a fence's language label. A heading's id is written after its text as `{#id}` (the chunker's anchor), its own
`{#id}` or VitePress's slug where its text is not all the id's (_heading_ids).
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from app.corpus.vitepress_attrs import attrs_plugin
from app.corpus.vitepress_components import component_plugin
from app.corpus.vitepress_emoji import emoji_plugin
from app.corpus.vitepress_toc import ADDED, toc_plugin

# containerLabels: each titled box and its default title.
TITLES = {"tip": "TIP", "info": "INFO", "warning": "WARNING", "danger": "DANGER", "details": "Details",
          "note": "NOTE", "important": "IMPORTANT", "caution": "CAUTION"}
_AS_IS = ("raw", "v-pre")  # a plain <div>: what is inside shows as rendered
_ALERT = re.compile(r"^\[!([\w-]+)\]([^\n\r]*)")  # alertMarkerRE
# extractLang: the language a fence's info starts with (its label; a tab's title when it has none).
_LANGUAGE = re.compile(r"^[a-zA-Z0-9\-_]+")
_TAB_TITLE = re.compile(r"\[(.*)\]")
_VP_BLOCK = re.compile(r"""(\bclass\s*=\s*["'][^"']*?)(?<![\w-])vp-block(?![\w-])""")
# A comment holding Shiki's notation at a line's end (@shikijs/transformers' matchers and
# RE_NOTATION): `// [!code ++]`, `# [!code focus]`, `<!-- [!code error] -->`, `/* [!code hl] */`.
# VitePress's slugify (@mdit-vue/shared, vitepress 2.0.0-alpha.19): each run of these characters is one `-`.
_VITEPRESS_SPECIAL = re.compile(r"""[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:"'“”‘’<>,.?/]+""")
_NOTATION = re.compile(r"""\s*(?:<!--\s*(?:\[!code\b[^\]]*\]\s*)+-->|/\*\s*(?:\[!code\b[^\]]*\]\s*)+\*/"""
                       r"""|(?://|["'#]|;{1,2}|%{1,2}|--)\s*(?:\[!code\b[^\]]*\]\s*)+)\s*$""")


def vitepress_slug(text: str) -> str:
    """VitePress's slugify: a heading's anchor from its text (`coverage.provider` → `coverage-provider`)."""
    text = re.sub(r"[\u0300-\u036f\u0000-\u001f]", "", unicodedata.normalize("NFKD", text))
    text = re.sub(r"-{2,}", "-", _VITEPRESS_SPECIAL.sub("-", text)).strip("-")
    return re.sub(r"^(\d)", r"_\1", text).lower()


# Vue components a page uses whose templates docschat reads: those its `<script setup>` imports from a
# `.vue` file, and those the theme's entry registers (`app.component('Name', Imported)`).
_SCRIPT_SETUP = re.compile(r"<script\b[^>]*\bsetup\b[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)
_VUE_IMPORT = re.compile(r"""^\s*import\s+([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"\n]+\.vue)['"]""", re.MULTILINE)
_REGISTERED = re.compile(r"""\.component\(\s*['"]([\w-]+)['"]\s*,\s*([A-Za-z_$][\w$]*)\s*\)""")
_TEMPLATE = re.compile(r"<template\b[^>]*>(.*)</template>", re.DOTALL)
_SLOT = re.compile(r"<slot\b([^>]*)>", re.IGNORECASE)
_SLOT_NAME = re.compile(r"""(?<![:\w-])name\s*=\s*["']([^"']*)["']""")
_THEME_ENTRY = "/.vitepress/theme/index"


def component_slots(text: str, modules: Callable[[tuple[str, ...]], dict[str, str | None]]) -> dict[str, list[str]]:
    """The slots each Vue component the page uses renders (by its name in lower case without `-`,
    as the page reader sees `<NoSlot>` and `<no-slot>` alike): the page shows a component's children
    only in the slots its template renders (`<slot />` the default one). `modules` gives a module's
    text by its import path (the page's folder, or `/` the site's). A component whose file the
    source lacks, or that renders no template of its own (a render function, a dynamic slot name),
    is left out: its children are shown (as the page reader shows an unknown element's)."""
    wanted = {name: source for script in _SCRIPT_SETUP.findall(text) for name, source in _VUE_IMPORT.findall(script)}
    theme = modules((_THEME_ENTRY,)).get(_THEME_ENTRY) or ""
    imported = dict(_VUE_IMPORT.findall(theme))
    for name, local in _REGISTERED.findall(theme):
        if local in imported:  # relative to the theme's folder, asked for from the site's root
            wanted.setdefault(name, "/" + posixpath.normpath(posixpath.join(".vitepress/theme", imported[local])))
    texts = modules(tuple(sorted(set(wanted.values())))) if wanted else {}
    slots: dict[str, list[str]] = {}
    for name, source in wanted.items():
        template = _TEMPLATE.search(texts.get(source) or "")
        if template is None:
            continue
        names = [_slot_name(attributes) for attributes in _SLOT.findall(template.group(1))]
        if None not in names:
            slots[name.lower().replace("-", "")] = sorted({str(slot) for slot in names})
    return slots


def _slot_name(attributes: str) -> str | None:
    """A `<slot>`'s name ("default" when it has none); None when it is bound (`:name`): unread."""
    if re.search(r"(?:^|\s)(?::|v-bind:)name\b", attributes):
        return None
    found = _SLOT_NAME.search(attributes)
    return found.group(1) if found else "default"


_THEME_ENTRIES = tuple(f".vitepress/theme/index.{ext}" for ext in ("js", "ts", "mjs", "mts"))


def home_hero(front: Mapping[str, Any], files: Mapping[str, str]) -> str:
    """What VitePress's default theme shows of a `layout: home` page's front matter, above its text
    (VPHome): the hero's name, text and tagline (HTML: `v-html`), its actions' labels, each
    feature's title, details (HTML, or a list of them) and link text. Written as HTML before the
    page, in a `v-pre` block (Vue does not compile a `v-html` value); nothing on a site whose theme
    never imports `vitepress/theme` (its own layout: what it shows is not read)."""
    entry = next((files[name] for name in _THEME_ENTRIES if name in files), None)
    if front.get("layout") != "home" or (entry is not None and "vitepress/theme" not in entry):
        return ""
    given = front.get("hero")
    hero: dict[str, Any] = given if isinstance(given, dict) else {}
    shown = [f"<p>{hero[key]}</p>" for key in ("name", "text", "tagline") if _scalar(hero.get(key))]
    shown += [f"<p>{html.escape(str(action['text']))}</p>" for action in _list(hero.get("actions"))
              if isinstance(action, dict) and _scalar(action.get("text"))]
    for feature in _list(front.get("features")):
        if not isinstance(feature, dict):
            continue
        details = feature.get("details")
        shown += [f"<p>{feature['title']}</p>"] if _scalar(feature.get("title")) else []
        shown += [f"<p>{item}</p>" for item in (_list(details) if isinstance(details, list) else [details]) if _scalar(item)]
        shown += [f"<p>{html.escape(str(feature['linkText']))}</p>"] if _scalar(feature.get("linkText")) else []
    # One line: a blank line in a value would end the HTML block and let Markdown read the rest.
    line = re.sub(r"[\r\n]+", " ", "".join(shown))
    return f'<div v-pre class="VPHome">{line}</div>\n\n' if shown else ""


def _scalar(value: object) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip() != ""


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


# @mdit-vue/plugin-sfc's block (createSfcRegexp): an HTML block that is a `<script>` or `<style>`
# element, taken out of the page's HTML as one of its Vue component's blocks.
_SFC_BLOCK = re.compile(r"^\s*(<(script|style)\s?.*?>)(.*)(</\2\s*>)\s*$", re.IGNORECASE | re.DOTALL)
# The `<style>` elements of a block as Vue's SFC parser reads them (its content is raw text up to
# `</style`), and an attribute of one's opening tag.
_STYLE_ELEMENT = re.compile(r"<style(?=[\s/>])([^>]*)>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_ATTRIBUTE = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def render_vitepress(text: str, styles: list[dict[str, object]] | None = None) -> str:
    """The page's Markdown (front matter and includes already handled) as VitePress's HTML. Its
    `<style>` blocks are left out of it, as VitePress leaves them (the page's Vue component's
    blocks), and added to `styles` as {"css", "scoped", "module"}: each when the tag has that
    attribute (compiler-sfc's createBlock: the name as written; another spelling is neither, which
    hides more, never less)."""
    return str(_parser().render(text, {"sfc_styles": styles if styles is not None else []}))


def _render_html_block(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """@mdit-vue/plugin-sfc's html_block rule: a `<script>` or `<style>` block is not in the HTML."""
    found = _SFC_BLOCK.match(tokens[idx].content)
    if found is None:
        return str(tokens[idx].content)
    if found.group(2).lower() == "style":
        for attributes, css in _STYLE_ELEMENT.findall(found.group(0)):
            names = _ATTRIBUTE.findall(attributes)
            env.setdefault("sfc_styles", []).append({"css": css, "scoped": "scoped" in names, "module": "module" in names})
    return ""


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("default", {"html": True})  # markdown-it's default preset, as VitePress: nesting up to 100
    for name in (*_AS_IS, "code-group", *TITLES):
        container_plugin(md, name, render=_render_box)
    md.use(footnote_plugin).use(tasklists_plugin).use(attrs_plugin).use(component_plugin).use(toc_plugin, vitepress_slug)
    md.use(emoji_plugin)  # on unless the config's markdown.emoji is false (not read: code, mostly)
    md.core.ruler.after("block", "github_alerts", _github_alerts)
    md.core.ruler.push("heading_ids", _heading_ids)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("html_block", _render_html_block)
    md.add_render_rule("alert_open", _render_alert)
    md.add_render_rule("alert_close", lambda self, tokens, idx, options, env: "</div>\n")
    return md


def _inline(md: MarkdownIt, text: str, env: EnvType) -> str:
    return str(md.renderInline(text, {"references": env.get("references", {})}))


def _render_box(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """createOpenRender and the close renders: a titled box, a `<details>`, a tab group, or a div."""
    token = tokens[idx]
    name = token.type.removeprefix("container_").rsplit("_", 1)[0]
    if token.nesting == -1:
        return "</details>\n" if name == "details" else "</div></div>\n" if name == "code-group" else "</div>\n"
    if name == "v-pre":
        return "<div v-pre>\n"  # Vue leaves what it holds as written (no `{{ }}`, no directives)
    if name in _AS_IS:
        return '<div class="vp-raw">\n'
    if name == "code-group":
        return _code_group(tokens, idx)
    info = token.info.strip()[len(name):].strip()
    title = _inline(_parser(), info or TITLES[name], env)
    # Its `{…}` attributes (vitepress_attrs.py: `::: tip {hidden}`) on the box, its class before the box's.
    attributes = {key: value for key, value in token.attrs.items() if key != "class"}
    written = "".join(f' {key}="{html.escape(str(value))}"' for key, value in attributes.items())
    classes = " ".join(str(part) for part in (token.attrGet("class"), name) if part)
    if name == "details":
        return f'<details{written} class="{classes} custom-block"><summary>{title}</summary>\n'
    return f'<div{written} class="{classes} custom-block"><p class="custom-block-title">{title}</p>\n'


def _code_group(tokens: Sequence[Token], idx: int) -> str:
    """createCodeGroupOpenRender: a tab for each fence (or HTML block with a `data-title`) of the group."""
    tabs = []
    for token in tokens[idx + 1:]:
        if token.type == "container_code-group_close" and token.nesting == -1:
            break
        if token.type == "html_block":
            # A block's `vp-block` class (the theme hides it until its tab is clicked): what a click
            # shows is shown, as a fence's panel; outside a group nothing shows it (theme_hiding.json).
            token.content = _VP_BLOCK.sub(r"\1", token.content)
            found = re.search(r'data-title="(.*?)"', re.sub(r"<!--.*?-->", "", token.content, flags=re.DOTALL))
            title = found.group(1) if found else ""
        elif token.type == "fence" and token.tag == "code":
            title = _tab_title(token.info)
        else:
            continue
        if title:  # VitePress writes it unescaped into the label, as HTML
            tabs.append(f"<label>{title}</label>")
    # Apart: the theme's stylesheet shows each label as a tab of its own (innerText "a\nb", not "ab").
    return f'<div class="vp-code-group"><div class="tabs">{" ".join(tabs)}</div><div class="blocks">\n'


def _tab_title(info: str) -> str:
    """extractTitle: the fence's `[title]`, else its language, else "txt"."""
    found = _TAB_TITLE.search(info)
    return found.group(1) if found else _language(info) or "txt"


def _language(info: str) -> str:
    """extractLang: the word the fence's info starts with, as VitePress names the language."""
    found = _LANGUAGE.match(info)
    word = found.group(0) if found else ""
    return re.sub(r"^ansi$", "", re.sub(r"^vue-html$", "template", re.sub(r"-vue$", "", word)))


def _render_fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """A fence's code as Shiki shows it: its notation comments left out."""
    token = tokens[idx]
    lines = []
    for line in token.content.split("\n"):
        kept = _NOTATION.sub("", line)
        if kept.strip() or not line.strip() or kept == line:
            lines.append(kept)
    language = _language(token.info.strip())
    kind = f' class="language-{html.escape(language)}"' if language else ""
    # Vue reads a fence's code as written (v-pre) unless its language ends `-vue` (`{{ }}` evaluated).
    verbatim = "" if re.match(r"^[A-Za-z0-9_-]*-vue(?![A-Za-z0-9_-])", token.info.strip()) else " v-pre"
    return f"<pre{verbatim}><code{kind}>{html.escape(chr(10).join(lines))}</code></pre>\n"


def _heading_ids(state: StateCore) -> None:
    """A heading's id written as `{#id}` (the chunker's anchor) where its text would not give it: its
    own `{#id}` (taken off by the attributes, vitepress_attrs.py), or, when it holds HTML, VitePress's
    slug of its text tokens only (getTokensText leaves `html_inline` out), so the text a component
    shows (`<Badge text="beta" />`, vue-template.js) is no part of the id."""
    for open_, inline in zip(state.tokens, state.tokens[1:], strict=False):
        children = inline.children or []
        if open_.type != "heading_open":
            continue
        slug = open_.attrGet("id")
        if not slug and any(child.type == "html_inline" for child in children):
            slug = vitepress_slug("".join(child.content for child in children if child.type != "html_inline"))
        if slug:
            children.append(Token("text", "", 0, content=f" {{#{slug}}}", meta={ADDED: True}))


def _github_alerts(state: StateCore) -> None:
    """gitHubAlertsPlugin: a blockquote whose first line is `[!TYPE] title` is a box of that type."""
    tokens = state.tokens
    for start, open_ in enumerate(tokens):
        if open_.type != "blockquote_open":
            continue
        end = next((i for i in range(start + 1, len(tokens))
                    if tokens[i].type == "blockquote_close" and tokens[i].level == open_.level), None)
        first = next((t for t in tokens[start:end] if t.type == "inline"), None) if end is not None else None
        found = _ALERT.match(first.content) if first is not None else None
        if end is None or first is None or found is None:
            continue
        kind = found.group(1).lower()
        if kind == "details" or kind not in TITLES:
            continue
        first.content = first.content[found.end():].lstrip()
        open_.type, open_.meta = "alert_open", {"title": found.group(2).strip() or TITLES[kind], "type": kind}
        tokens[end].type = "alert_close"


def _render_alert(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    meta = tokens[idx].meta  # the title as written: VitePress puts it into the HTML unescaped
    return f'<div class="{meta["type"]} custom-block github-alert"><p class="custom-block-title">{meta["title"]}</p>\n'
