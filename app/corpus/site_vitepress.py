"""A VitePress site: which Markdown files it builds, and the files its pages include.

VitePress (2.0.0-alpha.19, vitepress/dist/node) builds every `**/*.md` of its source folder
(tinyglobby: no file in a folder or of a name starting with `.`), but `**/node_modules/**`,
`**/dist/**` and its config's `srcExclude` globs (resolvePages). A page pastes another file where it
writes `<!--@include: ./path-->` (processIncludes), before markdown-it reads it: the included text
is the page's, and a file pasted that way is usually excluded, not a page of its own (vitest's
`guide/cli-generated.md`).

The config is code (`.vitepress/config.ts`, often a function returning `defineConfig({…})`): it is
never run. `srcExclude` is read where the config writes it as an array of strings, by the page
reader's JavaScript parser (acorn); set any other way (a variable, a call) it is not read, with a
warning, and every page stays a page. `srcDir` is not read: a config that sets it gets a warning.
The navigation (`themeConfig.sidebar`) is not read: a page outside it is still published.

Every page is shown with the theme's stylesheets (Vite bundles what the theme imports): the `.css`
files of `.vitepress/theme/` (where `vitepress init` writes `style.css`, imported by its
`index.ts`) and those the theme's entry imports from elsewhere. One of that folder no code imports
is applied too (more hidden, never less); a Vue component's `<style>` is not read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.reader import read_module_value
from app.corpus.site_docusaurus import _micromatch
from app.corpus.site_model import _CSS_IMPORT, Site

VITEPRESS_CONFIGS = tuple(f".vitepress/config.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts"))
_THEME = ".vitepress/theme/"
_THEME_ENTRIES = tuple(f"{_THEME}index.{ext}" for ext in ("js", "ts", "mjs", "mts"))
_NEVER_BUILT = ("**/node_modules/**", "**/dist/**")  # VitePress's glob() ignores these, whatever the config says
_HIDDEN = re.compile(r"(?:.*/)?\.")  # tinyglobby's default (dot: false): no file under a `.` name
_SRC_EXCLUDE = re.compile(r"""(?<![\w$])["']?srcExclude["']?\s*:\s*""")
_SRC_DIR = re.compile(r"""(?<![\w$])["']?srcDir["']?\s*:""")

# processIncludes' expressions (the `{start,end}` line range and the `#region` after the path).
_INCLUDE = re.compile(r"<!--\s*@include:\s*(.*?)\s*-->", re.DOTALL)
_RANGE = re.compile(r"\{(\d*),(\d*)\}$")
_REGION = re.compile(r"#([^\s{]+)$")
# VitePress's region markers (`// #region name`, `<!-- #region -->`, `# region`, …): start, end.
_MARKERS = tuple((re.compile(start), re.compile(end)) for start, end in (
    (r"^\s*(?://\s*#?|(?:--|::|@?[rR][eE][mM])\s*#)region\b\s*(.*?)\s*$",
     r"^\s*(?://\s*#?|(?:--|::|@?[rR][eE][mM])\s*#)endregion\b\s*(.*?)\s*$"),
    (r"^\s*#\s*(?:#\s*|pragma\s+)?[rR]egion\b\s*(.*?)\s*$", r"^\s*#\s*(?:#\s*|pragma\s+)?[eE]nd ?[rR]egion\b\s*(.*?)\s*$"),
    (r"^\s*<!--\s*#?region\b\s*(.*?)\s*-->", r"^\s*<!--\s*#?endregion\b\s*(.*?)\s*-->"),
    (r"^\s*/\*\s*#region\b\s*(.*?)\s*\*/", r"^\s*/\*\s*#endregion\b\s*(.*?)\s*\*/"),
    (r"^\s*\(\*\s*#region\b\s*(.*?)\s*\*\)", r"^\s*\(\*\s*#endregion\b\s*(.*?)\s*\*\)"),
    (r"""^\s*"/{2,}\s*#region\b\s*(.*?)":\s*"",?\s*$""", r"""^\s*"/{2,}\s*#endregion\b\s*(.*?)":\s*"",?\s*$"""),
))
_MAX_INCLUDES = 200  # files pasted into one page, all depths together (a fan-out stops here)


def vitepress_site(files: Mapping[str, str]) -> Site:
    config = next(name for name in VITEPRESS_CONFIGS if name in files)
    site = Site("vitepress", config)
    text = files[config]
    excluded = _src_exclude(text)
    if excluded is None:
        excluded = ()
        site.warnings.append(f"{config}: srcExclude is set by code, not an array of strings: not read, every "
                             "Markdown file is a page")
    if _SRC_DIR.search(text):
        site.warnings.append(f"{config}: srcDir is not read: pages are read from the source's folder (set the "
                             "source's folder to the srcDir)")
    site.not_built = (_HIDDEN, *(re.compile(_micromatch(glob) + r"\Z") for glob in (*_NEVER_BUILT, *excluded)))
    site.stylesheets = _theme_stylesheets(files)
    return site


def _theme_stylesheets(files: Mapping[str, str]) -> tuple[str, ...]:
    """The stylesheets VitePress bundles with every page: its theme folder's, then those the theme's
    entry imports (`import '../../styles/docs.css'`)."""
    sheets = [path for path in sorted(files) if path.startswith(_THEME) and path.lower().endswith(".css")]
    for entry in _THEME_ENTRIES:
        for name in _CSS_IMPORT.findall(files.get(entry, "")):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(entry), name))
            if path in files and path not in sheets:
                sheets.append(path)
    return tuple(sheets)


def _src_exclude(text: str) -> tuple[str, ...] | None:
    """The config's `srcExclude: [...]` (empty when it has none; None when it is not an array of
    strings), read by acorn: the array is found by the option's name and parsed alone."""
    found = _SRC_EXCLUDE.search(text)
    if found is None:
        return ()
    end = _closing_bracket(text, found.end())
    if end is None:
        return None
    value = read_module_value(f"export default {text[found.end():end]}", typescript=True)
    if not isinstance(value.value, list) or value.skipped or not all(isinstance(v, str) for v in value.value):
        return None
    return tuple(glob.removeprefix("./") for glob in value.value)


def _closing_bracket(text: str, start: int) -> int | None:
    """The end of the array literal opening at `start` (after its `]`), skipping strings and comments."""
    if not text.startswith("[", start):
        return None
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = next((j for j in range(i + 1, len(text)) if text[j] == c and text[j - 1] != "\\"), len(text))
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def paste_includes(path: str, text: str, files: Mapping[str, str], warnings: list[str]) -> str:
    """`text` (the page at `path`) with each `<!--@include: …-->` replaced as VitePress's
    processIncludes replaces it: the file (relative to the page, or to the site's folder after `@`),
    its front matter dropped (a `.md` file read whole or by region), its `#region` (between region
    markers) or `{start,end}` lines, its own includes pasted in turn. A file including itself or a
    file that includes it is left as the comment; a file that is not there (the build fails) pastes
    nothing, with a warning."""
    count = [0]

    def paste(page: str, source: str, ancestors: tuple[str, ...]) -> str:
        def one(match: re.Match[str]) -> str:
            target = match.group(1)
            if not target:
                return match.group(0)
            span = _RANGE.search(target)
            target = target[:span.start()] if span else target
            region = _REGION.search(target)
            target = target[:region.start()] if region else target
            if target.startswith("@"):
                included = posixpath.normpath(target[2:] if target[1:2] in ("/", "\\") else target[1:])
            else:
                included = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
            if included == page or included in ancestors:
                return match.group(0)
            content = files.get(included) if not included.startswith("../") and count[0] < _MAX_INCLUDES else None
            if content is None:
                warnings.append(f"{path}: {match.group(0)!r} names no file of the site (or too many includes): "
                                "pastes nothing")
                return ""
            count[0] += 1
            if included.endswith(".md") and (region or not span):
                try:
                    content = parse_front_matter(content).body
                except FrontMatterError:
                    pass  # gray-matter's failure is the build's; the text is pasted as it is
            lines = content.split("\n")
            if region:
                regions = _region_lines(lines, region.group(1))
                if regions is None:
                    warnings.append(f"{path}: {match.group(0)!r}: no region {region.group(1)!r} (a heading's section "
                                    "is not read): pastes nothing")
                    return ""
                lines = regions
            if span:
                first = int(span.group(1)) if span.group(1) else 1
                last = int(span.group(2)) if span.group(2) else len(lines)
                if first < 1 or last < first or last > len(lines):
                    warnings.append(f"{path}: {match.group(0)!r}: the range is out of bounds: pastes nothing")
                    return ""
                lines = lines[first - 1:last]
            return paste(included, "\n".join(lines), (*ancestors, page))

        return _INCLUDE.sub(one, source)

    return paste(path, text, ())


def _region_lines(lines: list[str], name: str) -> list[str] | None:
    """The lines of every region `name` (findRegions: between a start marker and its end), or None."""
    found: list[str] = []
    open_: list[tuple[str, int, int]] = []  # (name, first line, marker style)
    hit = False
    for number, line in enumerate(lines):
        start = next(((m.group(1), style) for style, (s, _) in enumerate(_MARKERS) if (m := s.match(line))), None)
        if start is not None:
            open_.append((_unquote(start[0]), number + 1, start[1]))
            continue
        if not open_:
            continue
        for style, (_, end) in enumerate(_MARKERS):
            if (m := end.match(line)) is None:
                continue
            end_name = _unquote(m.group(1))
            index = next((i for i in range(len(open_) - 1, -1, -1)
                          if (open_[i][0] == end_name if end_name else open_[i][2] == style)), -1)
            if index == -1:
                continue  # as findRegions: the next style may close one
            closed = open_[index]
            del open_[index:]
            if closed[0] == name and not any(r[0] == name for r in open_):
                found.extend(lines[closed[1]:number])
                hit = True
            break
    return found if hit else None


def _unquote(name: str) -> str:
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == '"' else name
