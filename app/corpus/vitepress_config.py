"""What a VitePress config (`.vitepress/config.*`) says of its pages, read from its literals, never
run: where the pages are (`srcDir`), which Markdown files are not built (`srcExclude`), where each
is published (`rewrites`, `cleanUrls`), where its sidebar places it (`themeConfig.sidebar`), and the
locales other than the root one (`locales`). VitePress 2.0.0-alpha.19 (vitepress/dist/node,
dist/client/theme-default/support/sidebar.js) is the reference each rule follows.

The config is code: often a function returning `defineConfig({…})`, wrapped in plugins' calls
(vitest: `withPwa(extendConfig(defineConfig({…})))`). The exported value is read by acorn
(read_module_value); when it is a call or a function, the object `defineConfig(` is given is read
instead. An option set by code (a variable, a call, a spread) is not read: a warning says so, and
its default stands (for the sidebar: no page gets a place from it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from app.corpus.reader import read_module_value

_SIDEBAR = re.compile(r"""(?<![\w$])["']?sidebar["']?\s*:\s*(?=[\[{])""")
_DEFINE_CONFIG = re.compile(r"\bdefineConfig\s*(?:<[^>()]*>)?\s*\(\s*(?=\{)")
_EXTERNAL = re.compile(r"^(?:[a-z]+:|//)", re.IGNORECASE)  # VitePress's EXTERNAL_URL_RE
_INDEX_OR_EXT = re.compile(r"(?:(^|/)index)?(?:\.(?:md|html))?$")  # shared.js's INDEX_OR_EXT_RE
_MAX_DEPTH = 30  # sidebar nesting read at most
_MAX_REWRITES = 200


@dataclass
class VitePressConfig:
    """The options read; `warnings` says which could not be (set by code)."""

    src_dir: str = ""  # "" the config's site folder; else a folder below it
    src_exclude: tuple[str, ...] | None = None  # None: not found in a readable config (the text is searched)
    clean_urls: bool = False
    rewrites: list[tuple[Any, list[Any]]] = field(default_factory=list)  # (match regex and keys, target tokens)
    sidebar: list[tuple[str, dict[str, tuple[str, ...]]]] | None = None  # (path key, {link: place}); "" one sidebar
    locales: tuple[str, ...] = ()  # folders of the locales other than root (`zh/`)
    base: str | None = "/"  # None: set by code
    warnings: list[str] = field(default_factory=list)


def read_config(name: str, text: str) -> VitePressConfig:
    found = VitePressConfig()
    value = _config_object(text)
    if value is None:
        found.warnings.append(f"{name}: its config object cannot be read from its literals (neither `export default "
                              "{…}` nor `defineConfig({…})`): its sidebar, srcDir, rewrites and cleanUrls are not read")
        return found

    def code(option: str, what: str) -> None:
        found.warnings.append(f"{name}: {option} is set by code, which docschat does not run: {what}")

    src_dir = value.get("srcDir")
    if isinstance(src_dir, str):
        found.src_dir = "/".join(p for p in src_dir.strip().split("/") if p not in ("", "."))
        if found.src_dir.startswith(".."):
            code("srcDir", "a folder above the config's is not read; pages are read from the site's folder")
            found.src_dir = ""
    elif src_dir is not None:
        code("srcDir", "pages are read from the site's folder (set the source's folder to the srcDir)")
    exclude = value.get("srcExclude")
    if isinstance(exclude, list) and all(isinstance(g, str) for g in exclude):
        found.src_exclude = tuple(glob.removeprefix("./") for glob in exclude)
    clean = value.get("cleanUrls")
    if isinstance(clean, bool):
        found.clean_urls = clean
    elif clean is not None:
        code("cleanUrls", "pages are linked as VitePress's default (`.html`) publishes them")
    _read_rewrites(value.get("rewrites"), found, code)
    theme = value.get("themeConfig")
    sidebar = theme.get("sidebar") if isinstance(theme, dict) else None
    if _is_code(theme) or _is_code(sidebar):
        code("themeConfig.sidebar", "no page gets a place from it")
    elif sidebar is not None:
        found.sidebar = _read_sidebar(sidebar)
        found.warnings.extend(f"{name}:{line}: {what} in the sidebar is code, which docschat does not run; the pages "
                              "it lists get no place from it" for line, what in _sidebar_code(text))
    base = value.get("base", "/")
    found.base = "/" + base.strip("/") if isinstance(base, str) else None
    locales = value.get("locales")
    if isinstance(locales, dict):
        found.locales = tuple(f"{key.strip('/')}/" for key in locales if key != "root" and key.strip("/"))
    elif locales is not None:
        code("locales", "every locale's pages are indexed")
    return found


def _is_code(value: Any) -> bool:
    return isinstance(value, dict) and "$code" in value


def _config_object(text: str) -> dict[str, Any] | None:
    """The config's object: the value the module exports, or the object `defineConfig(` is given."""
    value = read_module_value(text, typescript=True, config=True).value
    if isinstance(value, dict) and not _is_code(value):
        return value
    for found in _DEFINE_CONFIG.finditer(text):  # the first that is an object (one in a comment is not)
        end = closing_bracket(text, found.end())
        read = read_module_value(f"export default {text[found.end():end]}", typescript=True, config=True) if end else None
        if read is not None and isinstance(read.value, dict) and not _is_code(read.value):
            return read.value
    return None


def closing_bracket(text: str, start: int) -> int | None:
    """The end of the array or object literal opening at `start` (after its closing bracket),
    skipping strings and comments."""
    if not text.startswith(("[", "{"), start):
        return None
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            i = next((j for j in range(i + 1, len(text)) if text[j] == c and text[j - 1] != "\\"), len(text))
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2) + 1 if "*/" in text[i + 2:] else len(text)
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


# --- themeConfig.sidebar ------------------------------------------------------------------------

def normalize_link(link: str) -> str:
    """A sidebar link (or `/` + a page's relativePath) as VitePress's isActive compares them:
    decoded, no hash or query, no `.md`/`.html`, `/x/index` as `/x/`."""
    path = re.split(r"[#?]", link, maxsplit=1)[0]
    try:
        path = unquote(path, errors="strict")
    except UnicodeDecodeError:
        pass
    return _INDEX_OR_EXT.sub(r"\1", path, count=1)


def _read_sidebar(sidebar: Any) -> list[tuple[str, dict[str, tuple[str, ...]]]]:
    """Each sidebar (one, keyed "", for an array; else one per path key) with the place of each
    link it lists: the texts of the groups (items with `items`) it stands in, outermost first, its
    own text too when the link is a group's. `base` is added to links as addBase adds it."""

    def walk(items: Any, base: str, place: tuple[str, ...], depth: int, found: dict[str, tuple[str, ...]]) -> None:
        if not isinstance(items, list) or depth > _MAX_DEPTH:
            return
        for item in items:
            if not isinstance(item, dict) or _is_code(item):
                continue
            own = _text(item.get("base")) or base
            text = _text(item.get("text")).strip()
            children = item.get("items")
            inner = (*place, text) if children is not None and text else place
            link = item.get("link")
            if isinstance(link, str) and link and not _EXTERNAL.match(link):
                if own:
                    link = own + re.sub(r"^/", "" if own.endswith("/") else "/", link)
                link = link if link.startswith("/") else "/" + link  # normalizeLink: from the site's root
                found.setdefault(normalize_link(link), inner)
            if children is not None:
                walk(children, own, inner, depth + 1, found)

    sidebars: list[tuple[str, dict[str, tuple[str, ...]]]] = []
    if isinstance(sidebar, list):
        sidebars.append(("", {}))
        walk(sidebar, "", (), 0, sidebars[-1][1])
    elif isinstance(sidebar, dict):
        for key, value in sidebar.items():
            sidebars.append((key, {}))
            if isinstance(value, dict) and not _is_code(value):  # `{base, items}`
                walk(value.get("items"), _text(value.get("base")), (), 0, sidebars[-1][1])
            else:
                walk(value, "", (), 0, sidebars[-1][1])
    return sidebars


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _sidebar_code(text: str) -> list[tuple[int, str]]:
    """The parts of the config's sidebars that are code (a call, a spread, a variable), with their
    lines: each `sidebar: [...]` or `{...}` literal read alone."""
    found: dict[int, str] = {}
    for match in _SIDEBAR.finditer(text):
        end = closing_bracket(text, match.end())
        if end is None:
            continue
        read = read_module_value(f"export default {text[match.end():end]}", typescript=True)
        offset = text.count("\n", 0, match.end())
        for line, what in read.skipped if read.error is None else []:
            found.setdefault(line + offset, what)
    return sorted(found.items())


def sidebar_of(sidebars: list[tuple[str, dict[str, tuple[str, ...]]]], relative: str) -> dict[str, tuple[str, ...]]:
    """The sidebar a page shows (getSidebar): the one of an array, else that of the key with the
    most `/` its path (`/` + relativePath) starts with; {} for none."""
    if len(sidebars) == 1 and sidebars[0][0] == "":
        return sidebars[0][1]
    path = "/" + relative
    keys = sorted(sidebars, key=lambda entry: -len(entry[0].split("/")))  # stable, as Array.sort
    return next((links for key, links in keys if path.startswith(key if key.startswith("/") else "/" + key)), {})


# --- rewrites: path-to-regexp 6 (match and compile, as VitePress's resolveRewrites uses them) ------

def _tokens(text: str) -> list[Any]:
    """path-to-regexp 6.3's parse (prefixes "./", delimiter "/#?"): strings and keys
    {name, prefix, suffix, pattern, modifier}. ValueError where it throws."""
    lexed: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in "*+?":
            lexed.append(("MODIFIER", c))
        elif c == "\\":
            lexed.append(("ESCAPED", text[i + 1:i + 2]))
            i += 1
        elif c in "{}":
            lexed.append(("OPEN" if c == "{" else "CLOSE", c))
        elif c == ":":
            named = re.match(r"\w*", text[i + 1:], re.ASCII)
            if not named or not named.group(0):
                raise ValueError(f"missing parameter name at {i}")
            lexed.append(("NAME", named.group(0)))
            i += len(named.group(0))
        elif c == "(":
            depth, j = 1, i + 1
            while j < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 2 if text[j] == "\\" else 1
            pattern = text[i + 1:j - 1]
            # Capturing groups are refused (path-to-regexp too); none are read, nor a pattern with more
            # than 2 repeats (repeats one after another backtrack polynomially on a long path).
            if depth or not pattern or "(" in pattern or len(re.findall(r"[*+{]", pattern)) > 2:
                raise ValueError(f"a pattern docschat does not read at {i}")
            lexed.append(("PATTERN", pattern))
            i = j - 1
        else:
            lexed.append(("CHAR", c))
        i += 1
    result: list[Any] = []
    path, key, k = "", 0, 0

    def take(kind: str) -> str | None:
        nonlocal k
        if k < len(lexed) and lexed[k][0] == kind:
            k += 1
            return lexed[k - 1][1]
        return None

    while k < len(lexed):
        char, name, given = take("CHAR"), take("NAME"), take("PATTERN")
        if name is not None or given is not None:
            prefix = char or ""
            if prefix not in ("", ".", "/"):
                path, prefix = path + prefix, ""
            if path:
                result.append(path)
                path = ""
            previous = prefix or (result[-1] if result and isinstance(result[-1], str) else "")
            if result and not previous:
                raise ValueError("parameters with no text between them")
            safe = r"[^/#?]+?" if not previous or any(d in previous for d in "/#?") \
                else rf"(?:(?!{re.escape(previous)})[^/#?])+?"
            result.append({"name": name if name is not None else key, "prefix": prefix, "suffix": "",
                           "pattern": given or safe, "modifier": take("MODIFIER") or ""})
            key += name is None
            continue
        value = char if char is not None else take("ESCAPED")
        if value is not None:
            path += value
            continue
        raise ValueError("an optional group `{…}`, or a modifier where none may be, which docschat does not read")
    if path:
        result.append(path)
    return result


def _matcher(tokens: list[Any]) -> re.Pattern[str]:
    route = "^"
    for token in tokens:
        if isinstance(token, str):
            route += re.escape(token)
            continue
        prefix, pattern, modifier = re.escape(token["prefix"]), token["pattern"], token["modifier"]
        if prefix and modifier in "+*" and modifier:
            route += f"(?:{prefix}((?:{pattern})(?:{prefix}(?:{pattern}))*)){'?' if modifier == '*' else ''}"
        elif prefix:
            route += f"(?:{prefix}({pattern})){modifier}"
        elif modifier in ("+", "*"):
            raise ValueError(f"cannot repeat {token['name']!r} without a prefix")
        else:
            route += f"({pattern}){modifier}"
    return re.compile(route + "[/#?]?$", re.IGNORECASE)


def _read_rewrites(rewrites: Any, found: VitePressConfig, code: Any) -> None:
    if rewrites is None:
        return
    if not isinstance(rewrites, dict) or _is_code(rewrites):
        code("rewrites", "pages are linked at their own paths")
        return
    for source, target in list(rewrites.items())[:_MAX_REWRITES]:
        if not isinstance(target, str):
            code("rewrites", f"{source!r} is not read; pages it names are linked at their own paths")
            continue
        try:
            if source.startswith("^"):
                raise ValueError("a regular expression")
            tokens = _tokens(source)
            keys = [t for t in tokens if not isinstance(t, str)]
            if any(len(t["pattern"]) > 100 for t in keys):
                raise ValueError("a pattern longer than 100 characters")
            found.rewrites.append(((_matcher(tokens), keys), _tokens("/" + target)))
        except (ValueError, re.error) as exc:
            found.warnings.append(f"rewrites {source!r}: not read ({exc}); the pages it names are linked at their "
                                  "own paths")


def rewritten(rewrites: list[tuple[Any, list[Any]]], page: str) -> str:
    """`page` (its path in srcDir) where the first rewrite matching it publishes it, else itself."""
    for (pattern, keys), target in rewrites:
        matched = pattern.match(page)
        if matched is None:
            continue
        params: dict[Any, Any] = {}
        for key, value in zip(keys, matched.groups(), strict=False):
            if value is not None:
                params[key["name"]] = value.split(key["prefix"]) if key["modifier"] in ("*", "+") and key["modifier"] \
                    else value
        out = ""
        for token in target:
            if isinstance(token, str):
                out += token
                continue
            value = params.get(token["name"])
            if isinstance(value, list) and token["modifier"] in ("*", "+"):
                out += "".join(token["prefix"] + v for v in value)
            elif isinstance(value, str):
                out += token["prefix"] + value
            elif token["modifier"] not in ("?", "*"):
                return page  # the build fails (compile throws): left where it is
        # A page's relativePath is a `.md` path; a rewrite to anything else is not followed.
        return out[1:] if out.endswith(".md") and len(out) > 4 else page
    return page
