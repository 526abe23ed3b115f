"""Where Material for MkDocs' blog plugin publishes a post: not at its file's path (`blog/posts/
hello.md`) but at its `post_url_format` under the blog (`blog/2024/01/31/hello-world/`), as
material/plugins/blog/plugin.py (9.8.2) `_format_path_for_post` makes it: the post's `date`
(`created`) in `post_url_date_format`, its `slug`, else its title slugified (pymdownx.slugs,
lower case), its categories (slugified alike), its file's name. Compared with `mkdocs build`:
tests/data/site-nav/mkdocs-blog.built.json (scripts/record_mkdocs_blog_site.py)."""

from __future__ import annotations

import json
import posixpath
import re
import unicodedata
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

import yaml

# The plugin's own front matter reader (material/plugins/blog/structure: YAML_RE, SafeLoader).
_FRONT = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)
# An LDML date pattern's fields (babel's format_datetime, the plugin's post_url_date_format).
_DATE_FIELD = re.compile(r"'[^']*'|([A-Za-z])\1*")


def _additive(base: Any, over: Any) -> Any:
    """mergedeep's TYPESAFE_ADDITIVE, as Material's meta plugin merges: mappings key by key, lists
    one after the other, any other value the later one's."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{key: _additive(base[key], value) if key in base else value for key, value in over.items()}}
    if isinstance(base, list) and isinstance(over, list):
        return [*base, *over]
    return over


def folder_meta_of(folder_meta: tuple[tuple[str, str], ...], path: str, own: Mapping[str, Any]) -> Any:
    """A page's front matter `own` under Material's meta plugin: the `.meta.yml` of each folder
    (`folder_meta`: (folder, its mapping as JSON), top folders first) whose path the page's starts
    with (the plugin's `startswith`), merged in turn, the page's own values last. The blog plugin
    merges them so before it reads a post's date, slug, categories and draft."""
    merged: dict[str, Any] = {}
    for folder, meta in folder_meta:
        if path.startswith(folder):
            merged = _additive(merged, json.loads(meta))
    return _additive(merged, dict(own)) if merged else own


def _slugify(text: str, separator: str) -> str:
    """pymdownx.slugs.slugify(case="lower") (pymdown-extensions 10–13)."""
    slug = re.sub(r"</?[^>]*>", "", unicodedata.normalize("NFC", text)).strip().lower()
    return re.sub(" ", separator, re.sub(r"[^\w\- ]", "", slug))


def _format_date(value: date, pattern: str) -> str | None:
    """`value` in an LDML pattern of years, months and days given as numbers (`yyyy/MM/dd`); None
    for one that names a month or a weekday, or a time (the site's locale decides those)."""
    out = []
    for match in _DATE_FIELD.finditer(pattern):
        field, width = match.group(1), len(match.group(0))
        if field is None:
            out.append(match.group(0)[1:-1] or "'")
        elif field == "y":
            out.append(f"{value.year % 100:02d}" if width == 2 else f"{value.year:0{width}d}")
        elif field in "Md" and width <= 2:
            out.append(f"{value.month if field == 'M' else value.day:0{width}d}")
        else:
            return None
    parts = iter(out)  # each field (and quoted text) replaced, in order; the rest kept as written
    return _DATE_FIELD.sub(lambda _: next(parts), pattern)


def post_created(value: Any) -> date | None:
    """A Material blog post's `date` (or `date: {created: …}`) as a date or datetime; None when
    unreadable (site_model.py asks it too, for `draft_if_future_date`)."""
    value = value.get("created") if isinstance(value, Mapping) else value
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    return value if isinstance(value, date) else None


def _title(meta: Mapping[str, Any], markdown: str, name: str) -> str:
    """The post's title as MkDocs' Page.title has it before rendering: front matter `title`, else
    a first line that is a `# ` heading (mkdocs.utils.get_markdown_title), else the file's name."""
    if "title" in meta:
        return str(meta["title"])
    for line in markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.strip():
            if line.strip().startswith("# "):
                return line.strip().lstrip("# ")
            break
    title = name.replace("-", " ").replace("_", " ")
    return title.capitalize() if title.lower() == title else title


def post_urls(files: Mapping[str, str], prefix: str, options: Mapping[str, Any],
              warnings: list[str], folder_meta: tuple[tuple[str, str], ...] = ()) -> list[tuple[str, str]]:
    """(a post's file, the path it is published at under docs_dir `prefix`, with `.md`) for each
    post of the blog plugin's `options`, its front matter merged with its folders' `.meta.yml`
    (`folder_meta`, folder_meta_of); a post whose URL cannot be made keeps its file's path."""
    blog = str(options.get("blog_dir", "blog")).strip("/")
    posts = posixpath.normpath(str(options.get("post_dir", "{blog}/posts")).replace("{blog}", blog))
    url_format = str(options.get("post_url_format", "{date}/{slug}"))
    date_format = str(options.get("post_url_date_format", "yyyy/MM/dd"))
    separator = str(options.get("post_slugify_separator", "-"))
    category_separator = str(options.get("categories_slugify_separator", "-"))
    most = options.get("post_url_max_categories", 1)
    if "post_slugify" in options or "categories_slugify" in options:  # a Python function: not run
        warnings.append("mkdocs.yml: the blog plugin's post_slugify or categories_slugify is code, which docschat "
                        "does not run; its posts are linked at their files' paths")
        return []
    found = []
    for path in sorted(p for p in files if p.startswith(f"{prefix}{posts}/") and p.endswith(".md")):
        text = files[path].lstrip("\ufeff")
        match = _FRONT.match(text)
        try:
            meta = yaml.safe_load(match.group(1)) if match else None
        except yaml.YAMLError:
            meta = None
        meta = folder_meta_of(folder_meta, path, meta) if isinstance(meta, dict) else meta
        created = post_created(meta.get("date")) if isinstance(meta, dict) else None
        when = _format_date(created, date_format) if created is not None else None
        if not isinstance(meta, dict) or when is None:  # the plugin fails the build; or a month's name
            continue
        name = posixpath.basename(path)[:-3]
        slug = meta.get("slug") if isinstance(meta.get("slug"), str) and meta.get("slug") else \
            _slugify(_title(meta, text[match.end():].lstrip("\n") if match else text, name), separator)
        categories: list[Any] = meta["categories"] if isinstance(meta.get("categories"), list) else []
        try:
            url = url_format.format(categories="/".join(_slugify(str(c), category_separator) for c in categories[:most]
                                                        if isinstance(most, int)),
                                    date=when, file=name, slug=slug)
        except (KeyError, IndexError, ValueError):  # a placeholder the plugin does not know: its build fails
            continue
        found.append((path, f"{prefix}{blog}/{posixpath.normpath(url.strip('/'))}.md"))
    return found
