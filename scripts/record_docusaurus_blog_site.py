"""Records where the real Docusaurus build publishes each blog post of tests/data/site-nav/docusaurus-blog
(a blog under `routeBasePath: 'news'`, its posts named by date, by date in a folder, undated, in a
folder before the date, and with `slug` front matter) and the title it gives each. Each Markdown
file holds one marker (`marker-blog-…`); the site is built with `docusaurus build`, every built
HTML page searched for the markers (a post is on its own page and on the blog's lists), and each
post's `permalink` and `title` read from the metadata the build generates
(.docusaurus/docusaurus-plugin-content-blog/). Writes tests/data/site-nav/docusaurus-blog.built.json,
which tests/test_docusaurus_blog.py compares docschat's URLs and titles to.

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@19 react-dom@19
    .venv/bin/python scripts/record_docusaurus_blog_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from record_docusaurus_site import built_site, marker_urls

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "docusaurus-blog"
RECORDED = SITE.parent / "docusaurus-blog.built.json"
MARKER = re.compile(r"marker-blog-[a-z0-9-]+")


def _posts_metadata(site: Path) -> dict[str, dict[str, str]]:
    """Each post's source (its path in the site) → its permalink and title, from the build's metadata."""
    found: dict[str, dict[str, str]] = {}

    def walk(value: object) -> None:
        if isinstance(value, dict):
            source = value.get("source")
            if isinstance(source, str) and source.startswith("@site/") and "permalink" in value and "title" in value:
                found[source.removeprefix("@site/")] = {"permalink": value["permalink"], "title": value["title"]}
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for meta in sorted((site / ".docusaurus" / "docusaurus-plugin-content-blog").rglob("*.json")):
        walk(json.loads(meta.read_text()))
    return found


def main(node_modules: Path) -> None:
    version = json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory() as work:
        site, out = built_site(node_modules, SITE, Path(work))
        urls = marker_urls(out, MARKER)
        posts = _posts_metadata(site)
    sources = {}
    for source in sorted(SITE.rglob("*.md")):
        name = source.relative_to(SITE).as_posix()
        markers = MARKER.findall(source.read_text())
        sources[name] = {"urls": sorted({u for m in markers for u in urls.get(m, [])}), **posts.get(name, {})}
    RECORDED.write_text(json.dumps({"docusaurus": version, "files": sources}, indent=1, ensure_ascii=False) + "\n")
    print(f"{RECORDED}: {len(posts)} posts of {len(sources)} files (Docusaurus {version})")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
