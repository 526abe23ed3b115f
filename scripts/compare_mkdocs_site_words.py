"""Compares, word for word, what docschat indexes of each page of a real MkDocs site with what the
site's own build shows: Chromium's innerText of each built page's `<article>`, details and tabs
opened (as scripts/record_mkdocs_site.py takes it). Prints, per page and in total, the words docschat
indexes that the page does not show and the words it shows that docschat misses (design/site-navigation.md
reports a run on pymdown-extensions' documentation).

Build the site first with MkDocs in a throwaway venv (see scripts/record_mkdocs_site.py):

    /tmp/mkdocs/bin/mkdocs build -f SITE/mkdocs.yml -d /tmp/built
    .venv/bin/python scripts/compare_mkdocs_site_words.py SITE /tmp/built
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from _site_words import compare_pages

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.tabbed-block, .tabbed-content').forEach((panel) => { panel.style.display = 'block' })
}"""


def main(site: Path, built: Path) -> None:
    # Every file, as compose reads the tree (snippets paste any of them), but large ones (images).
    files = {path.relative_to(site).as_posix(): path.read_text(errors="replace") for path in site.rglob("*")
             if path.is_file() and ".git" not in path.parts and path.stat().st_size < 1 << 20}
    result = compose_files(files, Settings(), Source(name="site", repo=site, audiences=("public",)))
    print(f"{len(result.pages)} pages, {len(result.skipped_pages)} refused, {len(result.excluded)} left out")
    config = site / "mkdocs.yml"
    docs_dir = re.search(r"^docs_dir:\s*(\S+)", config.read_text(), re.MULTILINE)
    docs_prefix = (docs_dir.group(1).strip("/") + "/") if docs_dir else "docs/"

    def html(path: str) -> Path:
        stem = re.sub(r"(^|/)index$", "", Path(path.removeprefix(docs_prefix)).with_suffix("").as_posix())
        return built / stem / "index.html" if stem else built / "index.html"

    pages = [(composed.path, html(composed.path), " ".join(c.text for c in result.chunks if c.page == composed.path))
             for composed in result.pages]
    compare_pages(pages, "(document.querySelector('article') || document.body).innerText", OPEN_EVERYTHING)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
