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
import shutil
import sys
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.tabbed-block, .tabbed-content').forEach((panel) => { panel.style.display = 'block' })
}"""


def _words(text: str) -> Counter[str]:
    return Counter(word.lower() for word in WORD.findall(text))


def main(site: Path, built: Path) -> None:
    # Every file, as compose reads the tree (snippets paste any of them), but large ones (images).
    files = {path.relative_to(site).as_posix(): path.read_text(errors="replace") for path in site.rglob("*")
             if path.is_file() and ".git" not in path.parts and path.stat().st_size < 1 << 20}
    result = compose_files(files, Settings(), Source(name="site", repo=site, audiences=("public",)))
    print(f"{len(result.pages)} pages, {len(result.skipped_pages)} refused, {len(result.excluded)} left out")
    config = site / "mkdocs.yml"
    docs_dir = re.search(r"^docs_dir:\s*(\S+)", config.read_text(), re.MULTILINE)
    docs_prefix = (docs_dir.group(1).strip("/") + "/") if docs_dir else "docs/"
    extra_total: Counter[str] = Counter()
    missing_total: Counter[str] = Counter()
    indexed_total = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                             args=["--no-sandbox"])
        page = browser.new_page()
        page.route("http*://**", lambda route: route.abort())  # the theme's CDN scripts: no network
        for composed in result.pages:
            stem = re.sub(r"(^|/)index$", "", Path(composed.path.removeprefix(docs_prefix)).with_suffix("").as_posix())
            html = built / stem / "index.html" if stem else built / "index.html"
            page.goto(html.as_uri())
            page.evaluate(OPEN_EVERYTHING)
            shown = _words(page.evaluate("(document.querySelector('article') || document.body).innerText"))
            indexed = _words(" ".join(c.text for c in result.chunks if c.page == composed.path))
            extra = Counter({w: n for w, n in indexed.items() if w not in shown})
            missing = Counter({w: n for w, n in shown.items() if w not in indexed})
            indexed_total += sum(indexed.values())
            extra_total.update(extra)
            missing_total.update(missing)
            print(f"{composed.path}: {sum(indexed.values())} words indexed, {sum(shown.values())} shown; "
                  f"indexed not shown {sum(extra.values())} {[w for w, _ in extra.most_common(6)]}; "
                  f"shown not indexed {sum(missing.values())} {[w for w, _ in missing.most_common(6)]}")
        browser.close()
    print(f"total: {indexed_total} words indexed; {sum(extra_total.values())} not shown, "
          f"{sum(missing_total.values())} shown and not indexed")
    print("most indexed not shown:", extra_total.most_common(20))
    print("most shown not indexed:", missing_total.most_common(20))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
