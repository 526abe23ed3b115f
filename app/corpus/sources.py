"""Where the docs come from: one or more sources, each with its weight and default audience.

A `docschat.toml` (path in DOCSCHAT_CONFIG, else ./docschat.toml when it exists) lists sources and
path boosts; without one, the environment settings describe the single source `docs`.

    [[sources]]
    name = "docs"          # unique; chunk ids and stats are per source
    repo = "."
    branch = "main"
    dir = "docs"
    site = "website"       # the folder of its site in `dir`; default: found (app/corpus/site_root.py)
    url_prefix = "/docs"
    weight = 1.15
    audience = "internal"  # the audience of its pages that declare none
    [[boosts]]
    glob = "help/**"       # page paths within a source
    factor = 1.2

A source of `kind = "code"` indexes source files by symbol (docs/guides/code.mdx): `link` is its
href template, its weight defaults to 0.8 and its audience to `developer`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import DOCS_INCLUDE, NAME, Settings
from app.corpus.code import DEFAULT_CODE_EXCLUDE, DEFAULT_CODE_INCLUDE
from app.errors import ConfigError
from app.globs import matches_any

DEFAULT_AUDIENCE = "internal"  # undeclared means internal: fail closed
# Code sources (kind = "code"): ranked a little below the docs, for developers, not the public.
CODE_WEIGHT = 0.8
CODE_AUDIENCE = "developer"
# A code chunk's href without a `link`: its path and lines (relative: the docs base URL goes in front).
DEFAULT_CODE_LINK = "/code/{path}#L{start}-L{end}"


def parse_audiences(value: object) -> tuple[str, ...]:
    """`public`, `"user, developer"` or `[user, developer]` → ('developer', 'user'); ValueError if malformed."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items:
        raise ValueError("an audience is a name or a list of names")
    names = set()
    for item in items:
        if not isinstance(item, str):  # its repr could be huge: a list of YAML aliases, written out
            raise ValueError(f"an audience is a name, not a {type(item).__name__}")
        if not NAME.match(item.strip().lower()):
            raise ValueError(f"audience {item[:80]!r} is not a name (letters, digits, - and _)")
        names.add(item.strip().lower())
    return tuple(sorted(names))


def parse_audience_filter(raw: str | None) -> list[str] | None:
    """Who is asking, as an operator types it (`a,b`; empty items ignored): the names, or None
    (every audience) when none is given; ValueError naming a malformed one."""
    if raw is None or not raw.strip():
        return None
    return list(parse_audiences([a for a in raw.split(",") if a.strip()]))


@dataclass(frozen=True)
class Source:
    name: str
    repo: Path
    branch: str = "main"
    dir: str = "docs"
    include: tuple[str, ...] = DOCS_INCLUDE
    exclude: tuple[str, ...] = ()
    url_prefix: str = "/docs"
    base_url: str | None = None  # None: hrefs stay relative to DOCS_BASE_URL
    weight: float = 1.0
    audiences: tuple[str, ...] = (DEFAULT_AUDIENCE,)  # of pages that declare none
    kind: str = "docs"  # or "code": source files chunked by symbol (app/corpus/code.py)
    link: str | None = None  # code: href template with {commit}, {path}, {start}, {end}
    # The folder of its site, in its folder ("." its folder itself); None: found (app/corpus/site_root.py).
    site: str | None = None


@dataclass(frozen=True)
class Boost:
    glob: str
    factor: float


@dataclass(frozen=True)
class SourcesConfig:
    sources: tuple[Source, ...]
    boosts: tuple[Boost, ...] = ()
    path: Path | None = None  # the file read, None for the environment's single source

    def source(self, name: str) -> Source:
        for source in self.sources:
            if source.name == name:
                return source
        raise ConfigError(f"no source named {name!r}; configured: {', '.join(s.name for s in self.sources)}")

    def weight(self, source: str, page: str) -> float:
        """Source weight × every matching path boost (1.0 for a source no longer configured)."""
        factor = next((s.weight for s in self.sources if s.name == source), 1.0)
        for boost in self.boosts:
            if matches_any(page, [boost.glob]):
                factor *= boost.factor
        return factor


def source_from_settings(settings: Settings) -> Source:
    """The single source that the environment settings describe."""
    try:
        audiences = parse_audiences(settings.docs_default_audience)
    except ValueError as exc:
        raise ConfigError(f"DOCS_DEFAULT_AUDIENCE: {exc}") from None
    return Source(
        name="docs", repo=settings.docs_repo, branch=settings.branch, dir=settings.docs_dir,
        include=tuple(settings.docs_include), exclude=tuple(settings.docs_exclude),
        url_prefix=settings.docs_url_prefix, base_url=None, weight=1.0, audiences=audiences,
        site=settings.docs_site or None,
    )


def config_path(settings: Settings) -> Path | None:
    if settings.docschat_config is not None:
        if not settings.docschat_config.is_file():
            raise ConfigError(f"DOCSCHAT_CONFIG: {settings.docschat_config} is not a file")
        return settings.docschat_config
    default = Path("docschat.toml")
    return default if default.is_file() else None


def load_sources(settings: Settings) -> SourcesConfig:
    """The configured sources: docschat.toml when there is one, else the environment's single source."""
    path = config_path(settings)
    if path is None:
        return SourcesConfig((source_from_settings(settings),))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    return parse_sources_config(data, path, settings)


def _field(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any) -> Any:
    """table[key] when it has the right type, `default` when absent; a ConfigError naming it otherwise."""
    if key not in table:
        return default
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, kind):  # TOML booleans are never wanted here
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(f"{where}: '{key}' must be a {names}, not {type(value).__name__}")
    return value


def _globs(table: dict[str, Any], key: str, where: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = table.get(key, default)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of glob strings")
    return tuple(value)


def parse_sources_config(data: dict[str, Any], path: Path, settings: Settings) -> SourcesConfig:
    """Validate the parsed TOML; every error names the file, the table and the key."""
    known = {"sources", "boosts"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (expected [[sources]] and [[boosts]])")
    tables = data.get("sources")
    if not isinstance(tables, list) or not tables:
        raise ConfigError(f"{path}: needs at least one [[sources]] table")
    base = path.parent
    sources: list[Source] = []
    for number, table in enumerate(tables, start=1):
        where = f"{path}: [[sources]] #{number}"
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: must be a table")
        name = _field(table, "name", str, where, None)
        if name is None or not NAME.match(name):
            raise ConfigError(f"{where}: 'name' is required: lower-case letters, digits, - and _")
        where = f"{path}: source {name!r}"
        if any(s.name == name for s in sources):
            raise ConfigError(f"{where}: the name is used twice")
        kind = _field(table, "kind", str, where, "docs")
        if kind not in ("docs", "code"):
            raise ConfigError(f"{where}: kind {kind!r} is not supported (docs, code)")
        code = kind == "code"
        repo = Path(_field(table, "repo", str, where, "."))
        weight = float(_field(table, "weight", (int, float), where, CODE_WEIGHT if code else 1.0))
        if not 0 < weight <= 100:
            raise ConfigError(f"{where}: 'weight' must be above 0 (and at most 100)")
        try:
            audiences = parse_audiences(table.get("audience", CODE_AUDIENCE if code else DEFAULT_AUDIENCE))
        except ValueError as exc:
            raise ConfigError(f"{where}: 'audience': {exc}") from None
        link = _field(table, "link", str, where, None)
        if link is not None and not code:
            raise ConfigError(f"{where}: 'link' is for kind = \"code\" sources (docs sources have base_url)")
        if link is not None and "{path}" not in link:
            raise ConfigError(f"{where}: 'link' must contain {{path}} (and usually {{commit}}, {{start}}, {{end}})")
        base_url = _field(table, "base_url", str, where, None)
        sources.append(Source(
            name=name,
            repo=repo if repo.is_absolute() else (base / repo),
            branch=_field(table, "branch", str, where, "main"),
            dir=_field(table, "dir", str, where, "." if code else "docs"),
            include=_globs(table, "include", where, tuple(DEFAULT_CODE_INCLUDE) if code else tuple(settings.docs_include)),
            exclude=_globs(table, "exclude", where, tuple(DEFAULT_CODE_EXCLUDE) if code else tuple(settings.docs_exclude)),
            url_prefix=_field(table, "url_prefix", str, where, "/" + name if len(tables) > 1 else "/docs"),
            base_url=base_url.rstrip("/") if base_url else None,
            weight=weight,
            audiences=audiences,
            kind=kind,
            link=link if link is not None else (DEFAULT_CODE_LINK if code else None),
            site=_field(table, "site", str, where, None),
        ))
        extra = sorted(set(table) - {"name", "kind", "repo", "branch", "dir", "include", "exclude", "url_prefix",
                                     "base_url", "weight", "audience", "link", "site"})
        if extra:
            raise ConfigError(f"{where}: unknown key {extra[0]!r}")
    boosts: list[Boost] = []
    for number, table in enumerate(data.get("boosts", []) or [], start=1):
        where = f"{path}: [[boosts]] #{number}"
        if not isinstance(table, dict) or not isinstance(table.get("glob"), str) or not table["glob"]:
            raise ConfigError(f"{where}: needs 'glob', a path glob within a source")
        factor = table.get("factor")
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 0 < factor <= 100:
            raise ConfigError(f"{where}: needs 'factor', a number above 0")
        boosts.append(Boost(table["glob"], float(factor)))
    return SourcesConfig(tuple(sources), tuple(boosts), path)
