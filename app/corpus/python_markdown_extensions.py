"""What the page reader's worker (python_markdown.py) runs its own way: pymdownx.snippets reads the
source's git tree, pymdownx.emoji draws what the built page shows, pymdownx.superfences takes a
fence's Pygments options without Pygments, and mkdocstrings' `::: name` blocks are read as the
plugin reads them and show nothing here."""

from __future__ import annotations

import os
import posixpath
import re
import shutil
from collections.abc import Callable
from typing import Any

# --- pymdownx.snippets, from the git tree ---------------------------------------------------------
#
# `--8<-- "file"` pastes a file found under the extension's `base_path` (folders or files, relative
# to the folder MkDocs runs in: mkdocs.yml's, the root of the source's files). The real extension
# runs, its `url_download` off, its files taken from the tree compose reads: each path it may open
# is asked of the parent process (`ask`: the page's key then depends on it, compose.py) and written
# into an empty folder of the worker (`sandbox`), emptied for each page; the extension opens it there
# (pymdown-extensions 10.0, the lowest allowed, has no other way to read a file). A path that leads
# out of the tree (`../../etc/passwd`, `/etc/passwd`, with `restrict_base_path: false` too) is never
# asked for, and a file found outside the sandbox is never opened.


def _in_tree(path: str) -> str | None:
    """`path` relative to the tree's root, normalized; None when it leads out of the tree."""
    path = posixpath.normpath(path)
    return None if path.startswith(("/", "../")) or path == ".." else path


def tree_snippets(options: dict[str, Any], sandbox: str, ask: Callable[[str], str | None]) -> Any:
    """pymdownx.snippets reading the tree's files (`ask(path)` their text, None when absent)."""
    from pymdownx.snippets import SnippetExtension, SnippetPreprocessor

    given = options.get("base_path", ["."])
    bases = [base for base in map(_in_tree, [given] if isinstance(given, str) else given) if base is not None]
    root = os.path.realpath(sandbox)

    class TreeSnippets(SnippetPreprocessor):
        def run(self, lines: list[str]) -> list[str]:
            shutil.rmtree(root, ignore_errors=True)
            os.makedirs(root)
            self.held: dict[str, bool] = {}  # path asked for → the tree has it
            self.unresolved: list[str] = []
            for base in bases:
                if not self.fetch(base):
                    os.makedirs(os.path.join(root, base), exist_ok=True)
            return list(super().run(lines))

        def fetch(self, path: str) -> bool:
            """The tree's file at `path` copied into the sandbox; False when the tree holds none."""
            if (relative := _in_tree(path)) is None:
                return False
            if relative not in self.held:
                text = ask(relative)
                self.held[relative] = text is not None
                try:
                    if text is not None:
                        os.makedirs(os.path.dirname(os.path.join(root, relative)), exist_ok=True)
                        with open(os.path.join(root, relative), "w", encoding=self.encoding, errors="replace") as file:
                            file.write(text)
                except (OSError, LookupError):  # a file where the tree has a folder, an unknown encoding
                    self.held[relative] = False
            return self.held[relative]

        def get_snippet_path(self, path: str) -> str | None:
            for base in bases:  # where the extension looks: in a base folder, beside a base file
                self.fetch(posixpath.join(posixpath.dirname(base) if self.held.get(base) else base, path))
            found = super().get_snippet_path(path)
            if found is not None and not os.path.realpath(found).startswith(root + os.sep):
                found = None  # off the tree: never read
            if found is None:
                self.unresolved.append(path)
            return found

    class TreeSnippetExtension(SnippetExtension):
        def extendMarkdown(self, md: Any) -> None:
            super().extendMarkdown(md)
            md.preprocessors.register(TreeSnippets(self.getConfigs(), md), "snippet", 32)

    return TreeSnippetExtension(**{**options, "base_path": [os.path.join(root, base) for base in bases]})


# --- pymdownx.emoji, as shown ----------------------------------------------------------------------

_ICON = re.compile(r":(?:material|octicons|fontawesome|simple)-[\w-]+:$")  # Material's icon sets' names


def emoji_options(options: dict[str, Any]) -> dict[str, Any]:
    """pymdownx.emoji's options, its index and generator the functions they name. An emoji drawn as
    an image (to_png, the default, and to_svg, pymdownx's or Material's) is an `<img>` whose alt
    the browser's innerText leaves out, as the recorded site shows; the page reader shows a Markdown
    image's alt, so it is drawn here as an empty `<span>`. Material's twemoji index adds its icons
    (`:material-check:`), drawn as inline SVG that shows no text: Material is not imported, so any
    name of its icon sets is taken for one."""
    from xml.etree.ElementTree import Element

    from pymdownx import emoji

    index_name = str(options.get("emoji_index", "pymdownx.emoji.emojione"))
    generator_name = str(options.get("emoji_generator", "pymdownx.emoji.to_png"))
    base = getattr(emoji, index_name.rsplit(".", 1)[-1], emoji.emojione)

    class Icons(dict[str, Any]):
        def get(self, key: str, default: Any = None) -> Any:
            found = super().get(key, default)
            return {"name": key.strip(":"), "category": "icons"} if found is None and _ICON.match(key) else found

    def index(config: Any, md: Any) -> Any:
        found = base(config, md)
        return {**found, "emoji": Icons(found["emoji"])} if index_name.startswith("material.") else found

    def image(*args: Any) -> Element:
        return Element("span", {"class": "emoji"})

    shown = generator_name.removeprefix("pymdownx.emoji.")  # these show text: the character, in a span
    generator = getattr(emoji, shown) if shown in ("to_alt", "to_png_sprite", "to_svg_sprite") else image
    return {**options, "emoji_index": index, "emoji_generator": generator}


# --- pymdownx.superfences, its fences' Pygments options ---------------------------------------------
#
# The page is rendered without Pygments (python_markdown.py's overrides), and pymdownx.superfences
# then takes a fence's `hl_lines`, `linenums`, `title` for HTML attributes and refuses the fence
# whole: "```python hl_lines="2"" became a paragraph of code text, where the site (Pygments on)
# shows code. Without Pygments they change nothing the reader reads (a highlighted line, line
# numbers Material draws from a data attribute) but the title: with Pygments, pymdownx.highlight
# shows it over the code (`<span class="filename">`, `title_mode: html` its HTML; `auto_title` the
# lexer's name). On a site whose own `use_pygments` is false, the fences are left as superfences
# reads them there (the same options refused: the real build shows such a fence as text).

_PYGMENTS_OPTIONS = ("hl_lines", "linenums", "title", "title_mode")
# Its entry in the extensions' JSON: the site highlights with Pygments (its fences' titles shown).
FENCE_TITLES = "docschat.fence_titles"
_TITLE = "docschat_title"  # a fence's title and title_mode, passed from the validator to the formatter
_FILENAME = re.compile(r'<span class="filename">(.*?)</span>', re.DOTALL)


def fences_without_pygments(md: Any, titles: bool = True) -> None:
    """The default fence of `md`'s pymdownx.superfences, if any, taking its Pygments-only options
    and, with `titles` (the site's Pygments on), showing a fence's title over its code."""
    import functools

    from pymdownx.superfences import SuperFencesCodeExtension, _validator, highlight_validator

    if not titles:
        return

    def validator(language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, str], md: Any) -> bool:
        okay = highlight_validator(language, inputs, options, attrs, md)
        # As highlight_validator takes them with Pygments on: a value written, not a bare name.
        options[_TITLE] = {name: attrs[name] for name in ("title", "title_mode")
                           if name in attrs and attrs[name] is not True}
        for name in _PYGMENTS_OPTIONS:
            attrs.pop(name, None)
        return bool(okay)

    for extension in md.registeredExtensions:
        if isinstance(extension, SuperFencesCodeExtension):
            for fence in extension.superfences:
                if fence["name"] == "superfences":
                    fence["validator"] = functools.partial(_validator, validator=validator)
                    fence["formatter"] = functools.partial(_titled, fence["formatter"])


def _titled(formatter: Any, src: str = "", language: str = "", options: Any = None, md: Any = None, **kwargs: Any) -> str:
    """The fence's code as the formatter writes it without Pygments, after the title Pygments would
    write over it: pymdownx.highlight's own (its Pygments branch, given the fence's title or its
    `auto_title`), taken from the `filename` span of what it writes."""
    import inspect

    given = (options or {}).pop(_TITLE, {})
    code = str(formatter(src=src, language=language, options=options, md=md, **kwargs))
    fenced = getattr(formatter, "__self__", None)
    if fenced is None or not (given.get("title") or getattr(fenced, "auto_title", False)):
        return code
    mode = given.get("title_mode", getattr(fenced, "title_mode", "text"))
    # The highlighter's options as this version of pymdown-extensions has them (10.0 takes no `md`,
    # `title_mode` nor `default_lang`; the lowest version pyproject allows is checked in CI).
    values = {"md": getattr(fenced, "md", None), "guess_lang": getattr(fenced, "guess_lang", False), "use_pygments": True,
              "extend_pygments_lang": getattr(fenced, "extend_pygments_lang", None),
              "auto_title": getattr(fenced, "auto_title", False), "auto_title_map": getattr(fenced, "auto_title_map", None),
              "default_lang": getattr(fenced, "default_lang", ""), "title_mode": mode if mode in ("text", "html") else "text"}
    try:
        accepted = inspect.signature(fenced.highlighter).parameters
        highlighted = fenced.highlighter(**{k: v for k, v in values.items() if k in accepted}).highlight(
            src if values["guess_lang"] else "", language, fenced.css_class, title=given.get("title"))
    except Exception:  # noqa: BLE001 - a title is an addition: the code is shown whatever happens to it
        return code
    found = _FILENAME.search(str(highlighted))
    return f'<p class="filename">{found.group(1)}</p>\n{code}' if found and found.group(1).strip() else code


# --- mkdocstrings' autodoc blocks ------------------------------------------------------------------
#
# With the mkdocstrings plugin, `::: package.module` (its YAML options indented under it) is where
# the site shows API reference generated from the code: collecting it means loading the project's
# code with the plugin's handlers, which docschat never does. The block is found as the plugin's
# own block processor finds it (mkdocstrings/_internal/extension.py AutoDocProcessor: its pattern,
# its priority, the lines before it read as Markdown, the options' block detabbed, options after a
# blank line) and shows nothing: without the plugin, the identifier and the options were indexed,
# text the site never shows.
AUTODOC = "docschat.mkdocstrings"
_AUTODOC_LINE = re.compile(r"^(?P<heading>#{1,6} *|)::: ?(?P<name>.+?) *$", flags=re.MULTILINE)


def autodoc_left_out() -> Any:
    """A Python-Markdown extension reading mkdocstrings' blocks and showing none of them."""
    from markdown.blockprocessors import BlockProcessor
    from markdown.extensions import Extension

    class AutodocLeftOut(BlockProcessor):
        def test(self, parent: Any, block: str) -> bool:
            return bool(_AUTODOC_LINE.search(block))

        def run(self, parent: Any, blocks: list[str]) -> None:
            block = blocks.pop(0)
            if match := _AUTODOC_LINE.search(block):
                if match.start() > 0:
                    self.parser.parseBlocks(parent, [block[: match.start()]])
                block = block[match.end():]
            block, rest = self.detab(block)
            if not block and blocks and blocks[0].startswith(("    handler:", "    options:")):
                blocks.pop(0)  # the options, after a blank line
            if rest:
                blocks.insert(0, rest)

    class Autodoc(Extension):
        def extendMarkdown(self, md: Any) -> None:
            md.parser.blockprocessors.register(AutodocLeftOut(md.parser), "mkdocstrings", 75)

    return Autodoc()
