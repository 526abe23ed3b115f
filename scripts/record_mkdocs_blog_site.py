"""Records where the real MkDocs build publishes each page of tests/data/site-nav/mkdocs-blog (or
the site folder given second: mkdocs-blog-formats, mkdocs-blog-meta), sites with Material for MkDocs' blog plugin:
each Markdown file holds one marker (`marker-blog-…`); the site is built (`mkdocs build`) and
every built HTML page searched for the markers. A post's URL is its own page's (the blog's index,
archive, category and numbered pages list excerpts of posts: not where a post is published, left
out). Writes <folder>.built.json, which tests/test_mkdocs_blog.py compares docschat's hrefs to.

MkDocs is not a docschat dependency: install it in a throwaway venv.

    python3 -m venv /tmp/mkdocs && /tmp/mkdocs/bin/pip install mkdocs==1.6.1 mkdocs-material \\
        markdown==3.11.3 pymdown-extensions==13.1.2
    .venv/bin/python scripts/record_mkdocs_blog_site.py /tmp/mkdocs/bin/mkdocs [tests/data/site-nav/mkdocs-blog-formats]
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "mkdocs-blog"
MARKER = re.compile(r"marker-blog-[a-z0-9-]+")


def main(mkdocs: Path, site_folder: Path) -> None:
    recorded = site_folder.parent / f"{site_folder.name}.built.json"
    version = subprocess.run([str(mkdocs.parent / "pip"), "show", "mkdocs-material"], capture_output=True,
                             text=True).stdout.split("Version: ", 1)[-1].split("\n", 1)[0]
    with tempfile.TemporaryDirectory() as work:
        site, out = Path(work) / "site", Path(work) / "built"
        shutil.copytree(site_folder, site)
        build = subprocess.run([str(mkdocs), "build", "-q", "-d", str(out)], cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"mkdocs build failed:\n{build.stdout}\n{build.stderr}")
        urls: dict[str, list[str]] = {}
        for html in sorted(out.rglob("*.html")):
            url = "/" + html.relative_to(out).as_posix().removesuffix("index.html")
            markers = set(MARKER.findall(html.read_text()))
            if len(markers) > 1 or any(part in url for part in ("/archive/", "/category/", "/page/")):
                continue  # a listing of posts' excerpts
            for marker in markers:
                urls.setdefault(marker, []).append(url)
    sources = {}
    for source in sorted(site_folder.rglob("*.md")):
        written = MARKER.findall(source.read_text())
        sources[source.relative_to(site_folder).as_posix()] = sorted({u for m in written for u in urls.get(m, [])})
    recorded.write_text(json.dumps({"mkdocs-material": version, "urls": sources}, indent=1, ensure_ascii=False) + "\n")
    print(f"{recorded}: {sum(map(bool, sources.values()))} of {len(sources)} files published (Material {version})")


if __name__ == "__main__":
    main(Path(sys.argv[1]).absolute(), Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else SITE)
