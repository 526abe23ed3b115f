"""MkDocs pages, read as MkDocs reads them: Python-Markdown with the site's `markdown_extensions`
(and the `toc`, `tables` and `fenced_code` MkDocs always adds), rendered to HTML here; the page
reader (app/corpus/reader.py) reads that HTML as a browser shows it, as it reads MyST's.

So `!!! note "Title"` is an admonition (its title shown), `???` a `<details>` (its text in the page,
one click away: shown, as the reader shows Mintlify's accordions and Docusaurus's details),
`=== "Tab"` a tab set (every tab's text), `*[HTML]: …` an abbreviation (its expansion a tooltip,
not text), `{: .class }` an attribute list, a list nested by four spaces a nested list; a comment
or an element `hidden` (md_in_html) shows nothing.

An extension's name is a Python module MkDocs imports: a repository must never make docschat import
a module of its choosing. Only the extensions below are enabled; any other name is left out with a
warning naming it. A configuration value MkDocs would resolve with a YAML tag (`!!python/name:…`
names Python code, `!ENV` the build's environment, `!relative` a path) is left out too.

`pymdownx.snippets` (`--8<-- "file.md"`) pastes files of the source's git tree, never of the disk
or the network, and an emoji shows what the built page shows (python_markdown_extensions.py); so do
`mdx_include` (`{!file!}`) and `markdown_include_variants` (`{* docs_src/x.py *}`, FastAPI's and
Typer's examples: python_markdown_includes.py).
"""

from __future__ import annotations

import atexit
import json
import os
import posixpath
import re
import select
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from app.corpus.python_markdown_extensions import (
    AUTODOC,
    FENCE_TITLES,
    autodoc_left_out,
    emoji_options,
    fences_without_pygments,
    tree_snippets,
)
from app.corpus.python_markdown_includes import INCLUDE_EXTENSIONS, import_quietly, tree_includes
from app.corpus.reader import MAX_MEMORY, MAX_SECONDS

# MkDocs enables these on every site (mkdocs/config/defaults.py: `builtins`).
MKDOCS_BUILTINS = ("toc", "tables", "fenced_code")

# Python-Markdown's own extensions, by the names MkDocs sites write (`toc` or
# `markdown.extensions.toc`). None reads a file or the network.
_PYTHON_MARKDOWN = frozenset({
    "abbr", "admonition", "attr_list", "codehilite", "def_list", "extra", "fenced_code", "footnotes",
    "legacy_attrs", "legacy_em", "md_in_html", "meta", "nl2br", "sane_lists", "smarty", "tables", "toc",
    "wikilinks",
})
# pymdown-extensions: those that change only how the page's own text is read and shown.
_PYMDOWNX = frozenset({
    "arithmatex", "betterem", "blocks.admonition", "blocks.caption", "blocks.definition", "blocks.details",
    "blocks.html", "blocks.tab", "bracketspan", "caret", "critic", "details", "emoji", "escapeall", "extra",
    "fancylists", "highlight", "inlinehilite", "keys", "magiclink", "mark", "pathconverter", "progressbar",
    "quotes", "saneheaders", "smartsymbols", "snippets", "striphtml", "superfences", "tabbed", "tasklist",
    "tilde",
})
# Left out on purpose, with why (each is named in the warning):
_NEVER = {
    # Embeds images read from the disk as base64.
    "pymdownx.b64": "it reads image files from the disk",
}
# Options overridden, each for the reader: a heading's permalink (`¶`, shown on hover) is no
# text of its section, nor a link around the heading (`anchorlink`) part of its title; Pygments'
# spans and line-number tables show the code's text with line numbers between its lines, while
# `<pre><code class="language-x">` is read as a fenced block in its language; a footnote's back
# link (`↩`) is navigation; tabs in `alternate_style` (Material's) write every label in one run
# before the panels, the labels' words glued together ("First tabSecond tab"): the other style
# shows the same text, each label before its own panel.
_OVERRIDES: dict[str, dict[str, Any]] = {
    "markdown.extensions.toc": {"permalink": False, "anchorlink": False},
    "markdown.extensions.footnotes": {"BACKLINK_TEXT": ""},
    "pymdownx.tabbed": {"alternate_style": False},
    "pymdownx.blocks.tab": {"alternate_style": False},
    "markdown.extensions.codehilite": {"use_pygments": False},
    "pymdownx.highlight": {"use_pygments": False},
    "pymdownx.snippets": {"url_download": False},  # no network: a URL snippet pastes nothing
    "mdx_include": {"allow_remote": False},  # nor a URL include
}
# pymdownx.emoji's index and generator are Python functions (`!!python/name:…`): those of
# pymdownx.emoji and of Material for MkDocs are taken by their names (emoji_options), no other.
_EMOJI_NAMES = frozenset({
    *(f"pymdownx.emoji.{name}" for name in ("emojione", "gemoji", "twemoji", "to_png", "to_svg", "to_png_sprite",
                                            "to_svg_sprite", "to_alt")),
    "material.extensions.emoji.twemoji", "material.extensions.emoji.to_svg",
})


class Tagged:
    """A value of mkdocs.yml written with a YAML tag (site.py's loader marks them, `tag` its name
    after `!` or `!!python/`: `ENV`, `name:pymdownx.emoji.to_svg`)."""

    tag = ""


class TaggedStr(str, Tagged):
    pass


class TaggedList(list[Any], Tagged):
    pass


class TaggedDict(dict[Any, Any], Tagged):
    pass


def _module(name: str) -> str | None:
    """The module an allowed extension name imports, None for any other name."""
    bare = name.strip()
    short = bare.removeprefix("markdown.extensions.")
    if short in _PYTHON_MARKDOWN:
        return f"markdown.extensions.{short}"
    if bare.startswith("pymdownx.") and bare.removeprefix("pymdownx.") in _PYMDOWNX or bare in INCLUDE_EXTENSIONS:
        return bare
    return None


# An extension's options are small: more values or deeper nesting than this is a hostile file (YAML
# aliases make a billion values of a few lines), and the options are left out.
_MAX_OPTION_VALUES = 10_000
_MAX_OPTION_DEPTH = 20


class _TooLarge(Exception):
    pass


def _untagged(value: Any, budget: list[int], depth: int = 0) -> tuple[Any, bool]:
    """The value without what a tag wrote, and False when something was dropped: a list or mapping
    holding a tagged value anywhere is left out whole (a custom fence without its `format` is not the
    fence the site wrote). JSON values: a date or other YAML scalar as its text; _TooLarge past the
    bounds above."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_OPTION_DEPTH:
        raise _TooLarge
    if isinstance(value, Tagged):
        return None, False
    if isinstance(value, dict):
        kept, whole = {}, True
        for key, item in value.items():
            clean, ok = _untagged(item, budget, depth + 1)
            whole = whole and ok
            if ok:
                kept[str(key)] = clean
        return kept, whole
    if isinstance(value, list):
        items = [_untagged(item, budget, depth + 1) for item in value]
        return [clean for clean, ok in items if ok], all(ok for _, ok in items)
    return (value if value is None or isinstance(value, (bool, int, float, str)) else str(value)), True


def _relative(value: Any, docs_dir: str) -> Any:
    """MkDocs' `!relative $config_dir/x` (mkdocs.yml's folder: the root of the source's files) and
    `!relative $docs_dir/x` as the plain paths they stand for; any other value as it is."""
    if isinstance(value, TaggedStr) and value.tag == "relative":
        for name, folder in (("$config_dir", "."), ("$docs_dir", docs_dir)):
            if value == name or value.startswith(name + "/"):
                return posixpath.join(folder, value[len(name) + 1:])
    return value


def site_extensions(config: Any, where: str, docs_dir: str = "docs") -> tuple[str, list[str]]:
    """mkdocs.yml's `markdown_extensions` (`config`, as MkDocs takes it: a list of names or of
    one-key {name: options} mappings, or one mapping) as the JSON the page reader renders with
    ([[module, options], …], MkDocs' built-ins first), and the warnings for what was left out."""
    warnings: list[str] = []
    entries: list[tuple[Any, Any]] = []
    if isinstance(config, dict):
        entries = list(config.items())
    elif isinstance(config, list):
        for item in config:
            if isinstance(item, dict) and len(item) == 1:
                entries.append(next(iter(item.items())))
            elif isinstance(item, str):
                entries.append((item, None))
            else:
                warnings.append(f"{where}: markdown_extensions item {str(item)[:80]!r} is not a name or a "
                                "{name: options} mapping; left out")
    elif config is not None:
        warnings.append(f"{where}: markdown_extensions is not a list; only MkDocs' own extensions are used")
    chosen: dict[str, dict[str, Any]] = {f"markdown.extensions.{name}": {} for name in MKDOCS_BUILTINS}
    for name, options in entries:
        module = _module(name) if isinstance(name, str) and not isinstance(name, Tagged) else None
        if module is None:
            why = _NEVER.get(str(name).strip(), "docschat does not run it")
            warnings.append(f"{where}: Markdown extension {str(name)[:80]!r} left out ({why}); "
                            "what it would show is read as plain Markdown")
            continue
        if module == "pymdownx.snippets" and isinstance(options, dict) and "base_path" in options:
            given = options["base_path"]
            options = {**options, "base_path": [_relative(base, docs_dir) for base in given]
                       if isinstance(given, list) else _relative(given, docs_dir)}
        if module == "pymdownx.emoji" and isinstance(options, dict):  # its functions by their names
            options = {key: value.tag[5:] if isinstance(value, Tagged) and value.tag[5:] in _EMOJI_NAMES
                       and value.tag.startswith("name:") else value for key, value in options.items()}
        try:
            clean, whole = _untagged(options if isinstance(options, dict) else {}, [_MAX_OPTION_VALUES])
        except _TooLarge:
            warnings.append(f"{where}: options of {name} hold more than {_MAX_OPTION_VALUES:,} values or nest "
                            f"deeper than {_MAX_OPTION_DEPTH}; left out")
            clean, whole = {}, True
        if not whole:
            warnings.append(f"{where}: options of {name} written with a YAML tag (!!python/name, !ENV, "
                            "!relative) are left out")
        chosen[module] = {**chosen.get(module, {}), **clean}  # a name given twice: its options merged
    if {"pymdownx.superfences", "pymdownx.inlinehilite"} & set(chosen) and "pymdownx.highlight" not in chosen:
        chosen["pymdownx.highlight"] = {}  # they highlight with its options, Pygments by default
    # The site's own Pygments (on by default), before docschat turns it off: its fences' titles show.
    titled = "pymdownx.superfences" in chosen and chosen.get("pymdownx.highlight", {}).get("use_pygments") is not False
    for module, options in list(chosen.items()):
        options.update(_OVERRIDES.get(module, {}))
        if (problem := _refused(module, options)) is None:
            continue
        defaults = dict(_OVERRIDES.get(module, {}))
        if options != defaults and _refused(module, defaults) is None:
            warnings.append(f"{where}: options of {module} refused by it ({problem}); its defaults are used")
            chosen[module] = defaults
        else:  # not installed in this version (pymdown-extensions' newer ones), or broken
            warnings.append(f"{where}: Markdown extension {module} cannot be loaded ({problem}); left out")
            del chosen[module]
    if titled and "pymdownx.superfences" in chosen:
        chosen[FENCE_TITLES] = {}
    # In the order written, MkDocs' built-ins first (the order extensions register in matters).
    return json.dumps(list(chosen.items()), sort_keys=True), warnings


def _refused(module: str, options: dict[str, Any]) -> str | None:
    """Why the extension does not take these options (as MkDocs would fail the build), or None."""
    import markdown

    try:
        if module in INCLUDE_EXTENSIONS:
            import_quietly()
        markdown.Markdown(extensions=[module], extension_configs={module: _configs(module, options)})
    except Exception as exc:  # noqa: BLE001 - any refusal is reported, never raised
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    return None


# --- Rendering, in a worker process ---------------------------------------------------------------
#
# Python-Markdown is quadratic or worse on some hostile input (50,000 `[a](` or `<a ` took over a
# minute, 5,000 abbreviations 39 s), and Python cannot stop a thread. Pages are rendered in a child
# process, one at a time, that is killed when a page takes longer than MAX_SECONDS (the page is
# then not indexed, with a warning) and started again for the next page: the page reader's limits
# (reader.py). Only the allowlisted extensions are enabled there too.

_LOCK = threading.Lock()
_WORKER: subprocess.Popen[bytes] | None = None
_SANDBOX: tempfile.TemporaryDirectory[str] | None = None  # the worker's folder for snippets


@lru_cache(maxsize=8)
def _renderer(extensions: str, sandbox: str) -> Any:
    import markdown

    written = json.loads(extensions)
    chosen = [(module, options) for module, options in written if _module(module) or module == AUTODOC]
    shared: dict[str, Any] = {}
    instances = ("pymdownx.snippets", AUTODOC, *INCLUDE_EXTENSIONS)  # reading the tree, or docschat's own
    renderer = markdown.Markdown(
        extensions=[tree_snippets(options, sandbox, _ask) if module == "pymdownx.snippets"
                    else autodoc_left_out() if module == AUTODOC
                    else tree_includes(module, options, sandbox, _ask, shared) if module in INCLUDE_EXTENSIONS
                    else module for module, options in chosen],
        extension_configs={module: _configs(module, options) for module, options in chosen if module not in instances})
    fences_without_pygments(renderer, titles=any(module == FENCE_TITLES for module, _ in written))
    return renderer


def _configs(module: str, options: dict[str, Any]) -> dict[str, Any]:
    return emoji_options(options) if module == "pymdownx.emoji" else options


def _render_here(text: str, extensions: str, sandbox: str) -> tuple[str, list[str]]:
    """The page's HTML, and the snippets it names that the tree does not hold."""
    renderer = _renderer(extensions, sandbox)
    try:
        html = str(renderer.reset().convert(text))
        lists = {id(found): found for name in ("snippet", "include_variants", "mdx_include")
                 if name in renderer.preprocessors
                 and (found := getattr(renderer.preprocessors[name], "unresolved", None)) is not None}
        return html, [path for found in lists.values() for path in found]  # the two includes share one
    except BaseException:
        # A parse that fails (a page nested too deeply) leaves its block parser's state behind, one
        # entry per open list, which reset() does not clear: the next page was read differently.
        _renderer.cache_clear()
        raise
    finally:
        renderer.reset()


def _ask(path: str) -> str | None:
    """The text of the tree's file at `path`, from the parent process (None: no such file)."""
    sys.stdout.buffer.write(_frame({"need": path}))
    sys.stdout.buffer.flush()
    header = sys.stdin.buffer.read(4)
    return json.loads(sys.stdin.buffer.read(struct.unpack(">I", header)[0])).get("text")


def _frame(data: dict[str, Any]) -> bytes:
    body = json.dumps(data).encode()
    return struct.pack(">I", len(body)) + body


def _serve() -> None:
    """The worker: a length-prefixed JSON request in, {"html"} or {"error"} out, until stdin ends."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MAX_MEMORY, MAX_MEMORY))
    read, write = sys.stdin.buffer, sys.stdout.buffer
    while len(header := read.read(4)) == 4:
        request = json.loads(read.read(struct.unpack(">I", header)[0]))
        answer: dict[str, Any]
        try:
            html, unresolved = _render_here(request["text"], request["extensions"], sys.argv[1])
            answer = {"html": html, "unresolved": unresolved}
        except RecursionError:
            answer = {"error": "nested too deeply for Python-Markdown"}
        except MemoryError:
            answer = {"error": f"not read within the page reader's memory limit ({MAX_MEMORY >> 20} MB)"}
        except Exception as exc:  # noqa: BLE001 - an extension failing on one page refuses that page
            answer = {"error": f"Python-Markdown failed: {type(exc).__name__}: {str(exc)[:300]}"}
        write.write(_frame(answer))
        write.flush()


def _stop() -> None:
    global _WORKER, _SANDBOX
    if _WORKER is not None:
        _WORKER.kill()
        _WORKER.wait()
        _WORKER = None
    if _SANDBOX is not None:
        _SANDBOX.cleanup()
        _SANDBOX = None


def _worker() -> subprocess.Popen[bytes]:
    global _WORKER, _SANDBOX
    if _WORKER is None or _WORKER.poll() is not None:
        _stop()
        _SANDBOX = tempfile.TemporaryDirectory(prefix="docschat-snippets-")
        # The child imports this module from where this process does.
        path = os.pathsep.join(entry for entry in sys.path if entry)
        command = [sys.executable, "-m", "app.corpus.python_markdown", _SANDBOX.name]
        _WORKER = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   env={**os.environ, "PYTHONPATH": path})
        atexit.unregister(_stop)
        atexit.register(_stop)  # once
    return _WORKER


def _read(stream: Any, size: int, deadline: float) -> bytes | None:
    """`size` bytes of `stream` by `deadline`, None when they do not come in time (or it ends)."""
    data = b""
    while len(data) < size:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
            return None
        chunk = os.read(stream.fileno(), size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


# MkDocs' MultiMarkdown-style meta data (mkdocs/utils/meta.py): without YAML front matter, the
# page's first lines of `key: value` (and their 4-space continuation lines), up to a blank line,
# are meta data, not text.
_META = re.compile(r"^[ ]{0,3}[A-Za-z0-9_-]+:\s*.*")
_META_MORE = re.compile(r"^(?:[ ]{4}|\t)\s*.*")


def without_meta(text: str) -> str:
    """The page as MkDocs renders it when it has no YAML front matter: its meta-data lines gone."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start, key = 0, False
    while start < len(lines):
        line = lines[start]
        if not line.strip():
            start += 1
            break
        if _META.match(line):
            key = True
        elif not (key and _META_MORE.match(line)):
            break
        start += 1
    return "\n".join(lines[start:]).lstrip("\n")


class Rendered(NamedTuple):
    html: str | None
    error: str | None  # why the page is not read, when html is None
    unresolved: tuple[str, ...] = ()  # snippets it names that the tree does not hold (pasted as nothing)


def render(text: str, extensions: str, files: Mapping[str, str] | None = None) -> Rendered:
    """The page's HTML as Python-Markdown renders it with `extensions` (site_extensions' JSON), or
    None and why it is not read (time, memory, an error of Python-Markdown). A snippet is read from
    `files` (the source's tree, paths from its root). STX and ETX are dropped first: Python-Markdown
    marks its placeholders with them, and the browser shows nothing of them."""
    text = text.replace("\x02", "").replace("\x03", "")
    with _LOCK:  # one page at a time in the worker
        worker = _worker()
        assert worker.stdin is not None and worker.stdout is not None
        deadline = time.monotonic() + MAX_SECONDS
        request: dict[str, Any] = {"text": text, "extensions": extensions}
        while True:
            try:
                worker.stdin.write(_frame(request))
                worker.stdin.flush()
            except OSError:
                _stop()
                return Rendered(None, "the Python-Markdown worker stopped")
            header = _read(worker.stdout, 4, deadline)
            body = _read(worker.stdout, struct.unpack(">I", header)[0], deadline) if header else None
            if body is None:
                _stop()
                return Rendered(None, f"not read within the page reader's time limit ({MAX_SECONDS:g} s)")
            answer = json.loads(body)
            if "need" not in answer:
                break
            found = files.get(answer["need"]) if files is not None else None  # a dependency of the page
            request = {"text": found.replace("\x02", "").replace("\x03", "") if found is not None else None}
    return Rendered(answer.get("html"), answer.get("error"), tuple(answer.get("unresolved", ())))


if __name__ == "__main__":
    _serve()
