"""Mintlify API pages generated from OpenAPI specs: which pages a site's navigation makes of a spec,
and what each shows, read from the spec by Mintlify's own parts (app/corpus/js/src/openapi.js:
@mintlify/openapi-parser, @mintlify/common's generateOpenApiPages, @mintlify/validation's
OpenApiToEndpointConverter) in the page reader's V8.

Mintlify makes an API page of an operation three ways (its api-playground/openapi-setup.mdx):
- a docs.json `openapi` source (a path, a list of them, or `{source, directory}`) on a tab, group,
  anchor… that lists no pages: a page for every operation of the spec, in groups by tag;
- a navigation entry naming an operation, `GET /users`, `openapi.json POST /users` or
  `webhook name`, read against the spec it names, else the `openapi` source of the tab or group it
  stands in, else any spec of the source;
- a page whose front matter says `openapi: "[spec] METHOD /path"`: its own text, then the
  operation's.
An operation marked `x-excluded` makes no page, one marked `x-hidden` a hidden one (left out as
any hidden page); fields and parameters so marked are never shown. A spec that cannot be read (not
in the source, not JSON or YAML, not OpenAPI 3, with a `$ref` to another file, which Mintlify
refuses, over the size or the reader's time and memory limits) is a warning naming it, and its
pages are not indexed. A generated page is the MDX file Mintlify writes for it: x-mint.metadata
its front matter, x-mint.content its text above the operation's.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.corpus.git_source import GitSourceError
from app.corpus.reader import Block, read_openapi_page, read_openapi_spec

MAX_SPEC_CHARS = 20_000_000  # a spec larger than this is not read (the largest seen, dify's, is 0.8 MB)
MAX_FIELDS = 3000  # field lines of one page at most (js/src/openapi.js MAX_FIELDS: the same number)
MAX_SPEC_PAGES = 5000  # pages generated from one spec at most (dify's largest has 82 operations)
_MAX_SPEC_FILES = 50  # OpenAPI files of a source looked at, at most
_MAX_SPEC_PEEKS = 300  # JSON and YAML files of a source opened to find them, at most
_SUFFIXES = (".json", ".yaml", ".yml")
# The start of an OpenAPI 3 document: its `openapi` key, in JSON or YAML, near the top.
_OPENAPI_KEY = re.compile(r"""^\s*\{?\s*["']?openapi["']?\s*:\s*["']?3""", re.MULTILINE)
# What JavaScript's `\s` and trim() take for whitespace, which the string is split on (Python's
# str.split also splits on U+001C–U+001F and U+0085, and not on U+FEFF).
_JS_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace", "webhook")
_LOADED: dict[str, dict[str, Any]] = {}  # spec key → what the reader answered for it (a few)


def _norm(path: str) -> str:
    return posixpath.normpath(path.strip().lstrip("/")).removeprefix("./")


def openapi_sources(value: Any, inherited: tuple[tuple[str, ...], str | None]) -> tuple[tuple[str, ...], str | None]:
    """The `openapi` sources (spec paths in the source, or URLs) and directory a docs.json `openapi`
    value gives a tab or group: a string, a list of strings, or `{"source": …, "directory": …}`;
    what names none leaves those inherited."""
    directory = inherited[1]
    if isinstance(value, dict):
        directory = value.get("directory") if isinstance(value.get("directory"), str) else directory
        value = value.get("source")
    items = value if isinstance(value, list) else [value]
    specs = tuple(item.strip() if "://" in item else _norm(item) for item in items if isinstance(item, str) and item.strip())
    return (specs, directory) if specs else (inherited[0], directory)


def openapi_files(files: Mapping[str, str], named: list[str]) -> tuple[str, ...]:
    """The OpenAPI files of the source: those docs.json names that it holds, then any JSON or YAML
    file that starts as an OpenAPI 3 document (Mintlify finds a page's spec among all of them), at
    most _MAX_SPEC_FILES. A spec named and not held is generated_pages' warning."""
    found = [spec for spec in dict.fromkeys(named) if "://" not in spec and spec in files]
    candidates = [path for path in sorted(files) if path.endswith(_SUFFIXES) and path not in found
                  and not path.startswith(("node_modules/", ".")) and "/node_modules/" not in path]
    for path in candidates[:_MAX_SPEC_PEEKS]:
        if len(found) >= _MAX_SPEC_FILES:
            break
        try:
            start = files[path][:4000]
        except GitSourceError:  # a blob the clone lacks: no spec of the site unless a page names it
            continue
        if _OPENAPI_KEY.search(start):
            found.append(path)
    return tuple(found)


def load_spec(path: str, files: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """(the spec's key in the reader, {"pages": […]} or {"error": why}) for the spec at `path`."""
    if "://" in path:
        return "", {"error": "a URL; docschat downloads nothing (commit the spec to the source and name its path)"}
    if path not in files:
        return "", {"error": "not in the source"}
    text = files[path]
    key = f"{path}\0{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()}"
    if key in _LOADED:
        return key, _LOADED[key]
    if len(text) > MAX_SPEC_CHARS:
        answer: dict[str, Any] = {"error": f"larger than {MAX_SPEC_CHARS // 1_000_000} MB"}
    else:
        answer = read_openapi_spec(key, text, path)
    while len(_LOADED) >= 8:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = answer
    return key, answer


def page_blocks(path: str, files: Mapping[str, str], method: str, endpoint: str, *, description: bool | str,
                content: bool = False) -> tuple[list[Block] | None, str | None, tuple[str, ...]]:
    """The blocks Mintlify's API page shows for `method endpoint` of the spec at `path` (the
    operation's description first, none, or that text: read_openapi_page), or (None, why); and the
    page's faults ("truncated", "content")."""
    key, answer = load_spec(path, files)
    if "error" in answer:
        return None, str(answer["error"]), ()
    data = read_openapi_page(key, method, endpoint, description=description, content=content)
    if data.error == "spec not loaded":  # the reader keeps a few specs: sent again, read in one call
        data = read_openapi_page(key, method, endpoint, description=description, content=content, text=files[path],
                                 file=path)
    if data.error is not None:
        if "limit" in data.error:  # over the reader's time or memory: its other pages would be too
            _LOADED[key] = {"error": data.error}
        return None, data.error, ()
    return data.blocks, None, data.faults


def _fault_warnings(page: str, spec: str, operation: str, faults: tuple[str, ...]) -> list[str]:
    found = []
    if "truncated" in faults:  # a schema that fans out (every field of a large union, nested)
        found.append(f"{page}: the OpenAPI operation {operation} of {spec} has more than {MAX_FIELDS:,} fields: "
                     f"the first {MAX_FIELDS:,} are indexed")
    if "content" in faults:
        found.append(f"{page}: the x-mint.content of the OpenAPI operation {operation} of {spec} does not parse as "
                     "MDX: not indexed")
    return found


@dataclass(frozen=True)
class Operation:
    """A page Mintlify generates from an operation of a spec."""

    path: str  # the page's path in the site (its href, `.mdx`): api-reference/users/get-user.mdx
    spec: str
    method: str
    endpoint: str
    title: str
    place: tuple[str, ...]
    hidden: bool  # in a hidden group, or `x-hidden`
    # The front matter of the MDX file Mintlify writes for the page (x-mint.metadata over the
    # operation's title and description; @mintlify/common's buildGeneratedMdxContent); None when
    # it cannot be written
    front: str | None = ""


def parse_operation(text: str) -> tuple[str | None, str, str] | None:
    """(spec file or None, method in lower case, path) of `[spec] METHOD /path`, or None: what
    Mintlify's potentiallyParseOpenApiString (@mintlify/common) makes of a navigation entry or a
    page's `openapi` front matter. Two or three words; the method in any case, one of OpenAPI's
    eight or `webhook`; the spec any word (trigger.dev's `v3-openapi GET /api/v1/runs`).
    tests/data/site-nav/mintlify-openapi-strings.json records what Mintlify's makes of each."""
    parts = _JS_SPACE.split(_JS_SPACE.sub(" ", text).strip(" "))
    if len(parts) not in (2, 3) or parts[-2].lower() not in _METHODS:
        return None
    return (parts[0] if len(parts) == 3 else None), parts[-2].lower(), parts[-1]


def _specs_for(named: str | None, inherited: tuple[str, ...], site_files: tuple[str, ...],
               files: Mapping[str, str]) -> list[str]:
    if named is None:
        return list(inherited or site_files)
    # Mintlify's spec `filename`: its path, its file name, or that without its extension
    # (trigger.dev's pages say `openapi: "v3-openapi GET /api/v1/runs"` of v3-openapi.yaml).
    wanted = _norm(named)
    matching = [f for f in (*inherited, *site_files)
                if wanted in (f, posixpath.basename(f), posixpath.splitext(posixpath.basename(f))[0])]
    return matching or [wanted]  # named but not found: load_spec says so


def _matches(page: Mapping[str, Any], method: str, endpoint: str) -> bool:
    return bool(page["method"] == method and (page["path"] == endpoint or page["path"].rstrip("/") == endpoint.rstrip("/")))


def find_operation(operation: str, inherited: tuple[str, ...], site_files: tuple[str, ...],
                   files: Mapping[str, str]) -> tuple[str, dict[str, Any]] | str:
    """(spec path, its page for the operation) named by `[spec] METHOD /path`, or why not."""
    parsed = parse_operation(operation)
    if parsed is None:
        return f"{operation[:200]!r} is not `[spec] METHOD /path`"
    named, method, endpoint = parsed
    candidates = _specs_for(named, inherited, site_files, files)
    problems = []
    for spec in candidates:
        _, answer = load_spec(spec, files)
        if "error" in answer:
            problems.append(f"{spec}: {answer['error']}")
            continue
        page = next((p for p in answer["pages"] if _matches(p, method, endpoint)), None)
        if page is not None:
            return spec, page
    if problems:
        return "; ".join(problems)
    if not candidates:
        return "no OpenAPI spec in the source"
    return (f"no operation {method.upper()} {endpoint} in {', '.join(candidates[:3])} (or it is x-excluded)")


def _dangling(spec: str, files: Mapping[str, str]) -> str | None:
    errors = load_spec(spec, files)[1].get("errors")
    return (f"{len(errors)} $ref(s) of this OpenAPI spec resolve to nothing ({'; '.join(errors)[:300]}): what "
            "they name is not shown") if errors else None


def generated_pages(site: Any, files: Mapping[str, str], warnings: list[str]) -> list[Operation]:
    """The pages the navigation of a Mintlify `site` (site_model.Site) generates from OpenAPI specs,
    in its order; what cannot be generated is a warning naming the spec and why."""
    found: dict[str, Operation] = {}
    failed: dict[str, list[str]] = {}
    for entry in site.openapi:
        if entry.operation:
            match = find_operation(entry.operation, entry.specs, site.openapi_files, files)
            if isinstance(match, str):
                failed.setdefault(match, []).append(entry.operation)
                continue
            spec, page = match
            pages = [(spec, page, entry.place)]
        else:
            pages = []
            for spec in entry.specs:
                _, answer = load_spec(spec, files)
                if "error" in answer:
                    failed.setdefault(f"{spec}: {answer['error']}", []).insert(0, f"every operation of {spec}")
                    continue
                if len(answer["pages"]) > MAX_SPEC_PAGES:
                    warnings.append(f"{spec}: {len(answer['pages'])} operations; the first {MAX_SPEC_PAGES} are indexed")
                pages += [(spec, p, (*entry.place, p["tag"]) if p["tag"] else entry.place)
                          for p in answer["pages"][:MAX_SPEC_PAGES]]
        for spec, page, place in pages:
            href = str(page["href"]).strip("/")
            if entry.directory and not entry.operation and href.startswith("api-reference/"):
                href = posixpath.join(entry.directory.strip("/"), href.removeprefix("api-reference/"))
            path = href + ".mdx"
            if path in files:
                continue  # a file of the source is the page published there
            found.setdefault(path, Operation(path, spec, page["method"], page["path"], page["title"] or href,
                                             place, entry.hidden or bool(page["hidden"]), page.get("front")))
    for why, operations in failed.items():
        first = why.splitlines()[0][:300]
        if operations[0].startswith("every operation of "):
            warnings.append(f"{site.config}: the pages generated from {operations[0][19:]} are not indexed: {first}")
            continue
        listed = ", ".join(operations[:3]) + (", …" if len(operations) > 3 else "")
        warnings.append(f"{site.config}: {len(operations)} OpenAPI page(s) of its navigation ({listed}) are not "
                        f"indexed: {first}")
    for spec in dict.fromkeys(op.spec for op in found.values()):  # read, with references that lead nowhere
        if (note := _dangling(spec, files)) is not None:
            warnings.append(f"{spec}: {note}")
    return list(found.values())


def front_matter_blocks(path: str, front: Any, files: Mapping[str, str], site: Any, blocks: list[Block],
                        warnings: list[str]) -> str | None:
    """A page whose front matter says `openapi: "[spec] METHOD /path"`: the operation's blocks added
    after its own (as Mintlify's API page shows them below the page's text), the operation's
    description first when the page has none of its own. Its summary, the page's title when the
    front matter gives none; None (and a warning) when the operation cannot be read."""
    operation = str(front.data["openapi"])
    match = find_operation(operation, (), site.openapi_files, files)
    if isinstance(match, str):
        warnings.append(f"{path}: generated from the OpenAPI operation {operation[:200]}, which is not read ({match}): "
                        "only what the page writes is indexed")
        return None
    spec, page = match
    found, why, faults = page_blocks(spec, files, page["method"], page["path"], description=not front.description)
    if found is None:
        warnings.append(f"{path}: the OpenAPI operation {operation[:200]} of {spec} cannot be read ({why}): only "
                        "what the page writes is indexed")
        return None
    blocks.extend(found)
    warnings.extend(_fault_warnings(path, spec, operation[:200], faults))
    if (note := _dangling(spec, files)) is not None:
        warnings.append(f"{path}: its spec {spec}: {note}")
    return str(page["title"] or "") or None


def compose_operation(operation: Operation, files: Mapping[str, str], settings: Any, source: Any, site: Any,
                      page_orders: Mapping[str, int], result: Any) -> None:
    """Composes the generated page `operation` into `result` (a compose.ComposeResult) as the MDX
    file Mintlify writes for it: its front matter (x-mint.metadata: title, description, noindex,
    `groups` its audiences, else the source's), its x-mint.content, then the operation. Left out
    when hidden (a hidden group, `x-hidden`), a redirect's source, or as its front matter says, as
    any page."""
    from app.corpus.chunker import Page, chunk_page
    from app.corpus.frontmatter import FrontMatter, parse_front_matter
    from app.corpus.site_model import HIDDEN, Exclusion, stem

    redirect = site.exclusion(operation.path, {})
    if redirect is not None and redirect.kind == "redirect":
        result.excluded.append((operation.path, redirect))
        return
    if operation.hidden and not site.index_hidden:
        result.excluded.append((operation.path, Exclusion(HIDDEN, f"an OpenAPI operation hidden in {site.config} "
                                                                  "(a hidden group, or x-hidden in its spec)")))
        return
    named = f"{operation.method.upper()} {operation.endpoint}"
    try:
        if operation.front is None:
            raise ValueError("Mintlify's writer cannot write it as front matter")
        front = parse_front_matter(operation.front)
        declared = front.audiences(groups=True)  # x-mint.metadata's `groups` (x-mint.groups), `public`
    except ValueError as exc:  # FrontMatterError too; fail closed: who may read it is unknown
        result.warnings.append(f"{operation.path}: x-mint.metadata of the OpenAPI operation {named} of "
                               f"{operation.spec}: {exc}; the page is internal")
        front, declared = FrontMatter(), ("internal",)
    if (reason := site.mintlify_exclusion(operation.path, front.data)) is not None:
        result.excluded.append((operation.path, reason))
        return
    blocks, why, faults = page_blocks(operation.spec, files, operation.method, operation.endpoint,
                                      description=front.description or True, content=True)
    if blocks is None:
        result.warnings.append(f"{operation.path}: the OpenAPI operation {named} of {operation.spec} cannot be read "
                               f"({why}); page skipped")
        result.skipped_pages.append(operation.path)
        return
    result.warnings.extend(_fault_warnings(operation.path, operation.spec, named, faults))
    page = Page(path=operation.path, title=front.title or operation.title, description=None,
                audiences=declared or source.audiences, body="\n\n".join(block.text for block in blocks),
                source=source.name, declared=declared is not None,
                blocks=tuple(blocks), place=operation.place, page_order=page_orders.get(stem(operation.path)))
    result.pages.append(page)
    result.chunks.extend(chunk_page(page, max_chars=settings.max_chunk_chars, url_prefix=source.url_prefix,
                                    base_url=source.base_url))
