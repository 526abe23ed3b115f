"""A VitePress site: which Markdown files it builds, where it publishes and places each, and the
files its pages include.

VitePress (2.0.0-alpha.19, vitepress/dist/node) builds every `**/*.md` of its `srcDir` (the config's
site folder by default; tinyglobby: no file in a folder or of a name starting with `.`), but
`**/node_modules/**`, `**/dist/**`, its config's `srcExclude` globs (resolvePages), and a dynamic
route's template (`[pkg].md`: its pages come from a paths loader, which is code). A page is
published at its path in srcDir, or where `rewrites` sends it (its relativePath); as `x.html` unless
`cleanUrls`. Its sidebar (`themeConfig.sidebar`) decides no page (VitePress builds and searches a page
no sidebar lists); it gives a page its place: the groups it stands in, in the sidebar that page shows
(app/corpus/vitepress_config.py reads the config from its literals, never run). Pages of a locale
other than the root one (`locales`, `zh/`) are left out: VitePress's search shows a visitor the
pages of the locale they read, and the root locale's visitor is the one docschat answers.

A page pastes another file where it writes `<!--@include: ./path-->` (processIncludes), before
markdown-it reads it: the included text is the page's, and a file pasted that way is usually
excluded, not a page of its own (vitest's `guide/cli-generated.md`).

Every page is shown with the theme's stylesheets (Vite bundles what the theme imports): the `.css`
files of `.vitepress/theme/` (where `vitepress init` writes `style.css`, imported by its
`index.ts`) and those the theme's entry imports from elsewhere. One of that folder no code imports
is applied too (more hidden, never less); a Vue component's `<style>` is not read.
"""

from __future__ import annotations

import posixpath
import re
import textwrap
from collections.abc import Callable, Mapping

from app.corpus.frontmatter import FrontMatterError, front_matter_data, parse_front_matter
from app.corpus.reader import read_module_value
from app.corpus.site_docusaurus import _micromatch
from app.corpus.site_model import _CSS_IMPORT, NOT_BUILT, Exclusion, NavPage, Site, stem
from app.corpus.theme_hiding import theme_css
from app.corpus.vitepress_config import closing_bracket, normalize_link, read_config, rewritten, sidebar_of

VITEPRESS_CONFIGS = tuple(f".vitepress/config.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts"))
_THEME = ".vitepress/theme/"
_THEME_ENTRIES = tuple(f"{_THEME}index.{ext}" for ext in ("js", "ts", "mjs", "mts"))
_NEVER_BUILT = ("**/node_modules/**", "**/dist/**")  # VitePress's glob() ignores these, whatever the config says
_HIDDEN = re.compile(r"(?:.*/)?\.")  # tinyglobby's default (dot: false): no file under a `.` name
_SRC_EXCLUDE = re.compile(r"""(?<![\w$])["']?srcExclude["']?\s*:\s*""")
_DYNAMIC_ROUTE = r".*\[\w+?\]"  # dynamicRouteRE: a template, built only as the pages its loader names

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
    options = read_config(config, text)
    site.warnings.extend(options.warnings)
    excluded = options.src_exclude if options.src_exclude is not None else _src_exclude(text)
    if excluded is None:
        excluded = ()
        site.warnings.append(f"{config}: srcExclude is set by code, not an array of strings: not read, every "
                             "Markdown file is a page")
    prefix = options.src_dir + "/" if options.src_dir else ""
    within = re.escape(prefix)
    site.not_built = (*((re.compile(f"(?!{within})"),) if prefix else ()),
                      re.compile(within + _HIDDEN.pattern), re.compile(within + _DYNAMIC_ROUTE),
                      *(re.compile(within + _micromatch(glob) + r"\Z") for glob in (*_NEVER_BUILT, *excluded)))
    site.docs_prefix = prefix  # `@` in an include or a snippet import names the srcDir
    site.left_out = {path: Exclusion(NOT_BUILT, f"{not_built_reason(site, path)}: never built") for path in files
                     if any(pattern.match(path) for pattern in site.not_built)}
    pages = {path: rewritten(options.rewrites, path[len(prefix):]) for path in sorted(files)
             if path.endswith(".md") and not any(pattern.match(path) for pattern in site.not_built)}
    slugs = []
    for path, relative in pages.items():
        url = relative if options.clean_urls or posixpath.basename(relative) == "index.md" else relative[:-3] + ".html"
        if url != path:
            slugs.append((path, url))
    site.slugs = tuple(slugs)
    site.locales = options.locales  # matched against published paths
    site.base = options.base
    if options.sidebar is not None:
        by_link: dict[str, list[str]] = {}
        for path, relative in pages.items():
            by_link.setdefault(normalize_link("/" + relative), []).append(path)
        for _key, links in options.sidebar:  # in the sidebars' order, each page in the one it shows
            for link, place in links.items():
                for path in by_link.get(link, ()):
                    if sidebar_of(options.sidebar, pages[path]) is links:
                        shows = _shows_sidebar(files[path])
                        site.listed.setdefault(stem(path), NavPage(place if shows else ()))
        site.every_page_listed = not site.listed
    site.stylesheets = _theme_stylesheets(files)
    # The default theme's own stylesheet hides `.vp-block` (a code group's panel until a tab shows it;
    # elsewhere always), recorded from its build (theme_hiding.json); a theme of the site's own, not.
    entry = next((files[name] for name in _THEME_ENTRIES if name in files), None)
    site.theme_css = theme_css("vitepress", "default") if entry is None or "vitepress/theme" in entry else ""
    return site


def _shows_sidebar(text: str) -> bool:
    """Whether the page shows its sidebar, and so a place in it: not with front matter `sidebar:
    false` or `layout: home` (the default theme's hasSidebar, VitePress 2.0.0-alpha.19), nor with
    `layout: false` (no theme at all); front matter as gray-matter's js-yaml reads it: `sidebar: no`
    is a string, and shows it."""
    front = front_matter_data(text, javascript=True)
    return front.get("sidebar") is not False and front.get("layout") != "home" and front.get("layout") is not False


def not_built_reason(site: Site, path: str) -> str:
    """Which of VitePress's rules leaves the file at `path` (one of `site.not_built`) unbuilt."""
    prefix = site.docs_prefix
    if not path.startswith(prefix):
        return f"outside the srcDir {prefix.rstrip('/')!r} of {site.config}"
    rest = path[len(prefix):]
    if _HIDDEN.match(rest):
        return "in a folder or of a name starting with `.`, which VitePress's page glob skips"
    if re.match(_DYNAMIC_ROUTE, rest):
        return "a dynamic route's template (`[x].md`): its pages come from its paths loader, which is code"
    if any(re.match(_micromatch(glob) + r"\Z", rest) for glob in _NEVER_BUILT):
        return "under node_modules or dist, which VitePress never builds"
    return f"named by srcExclude of {site.config}"


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
    end = closing_bracket(text, found.end())
    if end is None:
        return None
    value = read_module_value(f"export default {text[found.end():end]}", typescript=True)
    if not isinstance(value.value, list) or value.skipped or not all(isinstance(v, str) for v in value.value):
        return None
    return tuple(glob.removeprefix("./") for glob in value.value)


def paste_includes(path: str, text: str, files: Mapping[str, str], warnings: list[str], root: str = "") -> str:
    """`text` (the page at `path`) with each `<!--@include: …-->` replaced as VitePress's
    processIncludes replaces it: the file (relative to the page, or to the srcDir `root` after `@`),
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
                included = posixpath.normpath(root + (target[2:] if target[1:2] in ("/", "\\") else target[1:]))
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


# VitePress's snippet rule (snippetPlugin: a `<<<` line, not indented code, at any block depth).
_SNIPPET = re.compile(r"^((?:[ \t]{0,3}>)*[ \t]{0,3})<<<(.*?)[ \t]*$")
_SNIPPET_TITLE = re.compile(r"\s*\[(.+)\]$")
_SNIPPET_REGION = re.compile(r"#([\w.-]+)$")
_SNIPPET_LINES = re.compile(r"^\d+(?:[,-]\d+)*$")
_FENCE = re.compile(r"^(?:[ \t]{0,3}>)*[ \t]{0,3}(`{3,}|~{3,})")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # Shiki's `ansi` language shows the text without them


def import_snippets(path: str, text: str, read: Callable[[str], str | None], warnings: list[str],
                    root: str = "") -> str:
    """`text` (the page at `path`, its includes pasted) with each `<<< file#region{lines lang}
    [title]` line written as the code fence VitePress's snippet rule makes of it: the file
    (`@/` from the srcDir `root`, else from the page's folder; `read` gives a file of the site
    or the repository, None otherwise), its `#region` (markers dropped, dedented), the fence's
    language that written or the file's extension, its title the one written or the file's name
    (a code group's tab). A file that is not there fails the build; it pastes nothing here, with
    a warning. A line inside a fence or indented as code is left as it is."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        if (opened := _FENCE.match(line)) is not None:
            mark = opened.group(1)
            fence = mark if fence is None else None if mark[0] == fence[0] and len(mark) >= len(fence) else fence
        match = _SNIPPET.match(line) if fence is None else None
        if match is None:
            out.append(line)
            continue
        prefix, written = match.group(1), match.group(2).strip()
        title = (found.group(1) if (found := _SNIPPET_TITLE.search(written)) else "")
        written = written[:found.start()].rstrip() if found else written
        lines = lang = attrs = ""
        brace = written.rfind("{")
        if written.endswith("}") and brace > 0:
            lines, lang, attrs = _snippet_meta(written[brace + 1:-1].strip())
            written = written[:brace].rstrip()
        region = _SNIPPET_REGION.search(written)
        file = (written[:region.start()] if region else written).strip()
        name = re.split(r"[\\/]", file)[-1]
        extension = found.group(1) if (found := re.search(r"\.([a-zA-Z0-9]+)$", name)) else ""
        target = posixpath.normpath(root + file[2 if file[1:2] in ("/", "\\") else 1:] if file.startswith("@")
                                    else posixpath.join(posixpath.dirname(path), file))
        content = read(target) if file else None
        body = content.split("\n") if content is not None else None
        if body is not None and region:
            body = _region_lines(body, region.group(1))
            body = None if body is None else textwrap.dedent("\n".join(
                b for b in body if not any(s.match(b) or e.match(b) for s, e in _MARKERS))).split("\n")
        if body is None:
            warnings.append(f"{path}: {line.strip()!r} names no file (or region) docschat may read: pastes nothing")
            continue
        language = lang or extension
        shown = "\n".join(body).removesuffix("\n")  # the fence ends its last line, as a file's newline does
        shown = _ANSI.sub("", shown) if language == "ansi" else shown
        ticks = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", shown)), default=0))
        info = " ".join(part for part in (language, f"{{{lines}}}" if lines else "", attrs, f"[{title or name}]") if part)
        out.extend(prefix + piece for piece in (ticks + info, *shown.split("\n"), ticks))
    return "\n".join(out)


def _snippet_meta(meta: str) -> tuple[str, str, str]:
    """parseSnippetMeta: the `{…}` after a snippet's path as (line highlights, language, attributes)."""
    if not meta:
        return "", "", ""
    if re.fullmatch(r"[\d\s,-]+", meta) and _SNIPPET_LINES.match(collapsed := re.sub(r"\s+", "", meta)):
        return collapsed, "", ""
    lines = ""
    first = meta.split()[0]
    if _SNIPPET_LINES.match(first):
        lines, meta = first, meta[len(first):].lstrip()
    lang, _, attrs = meta.partition(" ") if meta else ("", "", "")
    return lines, lang, attrs.strip()


def base_warning(site: Site, url_prefix: str) -> str | None:
    """Why the source's URL prefix may not be where the VitePress site publishes its pages: its
    `base` (read, never applied: the prefix is the user's, and a proxy may serve the site
    elsewhere), None when they agree or the base is not known."""
    if site.framework != "vitepress" or site.base is None or site.base.rstrip("/") == url_prefix.rstrip("/"):
        return None
    return (f"{site.config}: the site is published under base {site.base!r}, and the source's URL prefix is "
            f"{url_prefix!r}, under which its pages are linked: set the prefix to {site.base!r} (DOCS_URL_PREFIX, or "
            "`url_prefix` in docschat.toml) if the site is served as it is built")
