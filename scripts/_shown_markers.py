"""What a built page shows of its source's markers (`marker-…`), as the site recorders
(scripts/record_*_site.py) take it: each built page loaded in headless Chromium (Debian's
`chromium`), `before` run first (tabs and `<details>` opened: what a click shows counts as
shown), then the innerText `shown` evaluates to read."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import sync_playwright

MARKER = re.compile(r"marker-[a-z0-9-]+")
# Links whose text starts with `linkto-` are recorded with the page the build made them lead to.
LINKS = ("Array.from(document.querySelectorAll('a[href]')).filter((a) => a.textContent.startsWith('linkto-'))"
         ".map((a) => [a.textContent, a.getAttribute('href')])")


def sphinx_html(sphinx_build: Path, site: Path, out: str) -> tuple[str, Callable[[str, Path], Path | None]]:
    """`site` built by `sphinx_build` into the folder `out` (the recorder exits when it fails): the
    build's stderr, and `built` for record_pages: the HTML file of a source page (its name, with its
    suffix, in the site), None when the build wrote none."""
    build = subprocess.run([str(sphinx_build), "-q", "-b", "html", str(site), out], capture_output=True, text=True)
    if build.returncode:
        sys.exit(f"sphinx-build failed:\n{build.stderr}")

    def built(name: str, _: Path) -> Path | None:
        html = Path(out) / (name.rsplit(".", 1)[0] + ".html")
        return html if html.is_file() else None

    return build.stderr, built


def record_pages(sources: list[tuple[str, Path]], built: Callable[[str, Path], Path | None], shown: str,
                 before: str | None = None, redirect: Callable[[str], bool] = lambda html: False,
                 shared: str = "", pasted: Callable[[str, Path], list[Path]] = lambda text, source: [],
                 root: Path | None = None, address: Callable[[Path], str] = Path.as_uri,
                 ready: str | None = None) -> dict[str, dict[str, object]]:
    """Each source page (name, file): not built, a redirect stub, or its markers shown and hidden.
    `built(name, file)` is the HTML file the build wrote for it, None when it wrote none. The
    markers of `shared` (a Sphinx conf.py's substitutions) are looked for on every built page too;
    the markers of the files `pasted(text, file)` names count as the page's (MkDocs' snippets).
    With `root` (the build's folder), its `linkto-` links too, each with the source page it leads to.
    `address(html)` is the URL the page is loaded from (a file's, or a server's: a site whose scripts
    must run), `ready` a function Chromium waits to be true before `before` runs (hydrated)."""
    pages: dict[str, dict[str, object]] = {}
    by_html = {html.resolve(): name for name, source in sources if (html := built(name, source)) is not None}
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for name, source in sources:
            text = source.read_text()
            markers = sorted(set(MARKER.findall(text + "".join(f.read_text() for f in pasted(text, source)))))
            html = built(name, source)
            if html is None:
                pages[name] = {"built": False, "markers": markers}
                continue
            if redirect(html.read_text()):
                pages[name] = {"built": True, "redirect": True, "markers": markers}
                continue
            markers = sorted({*markers, *MARKER.findall(shared)})
            page.goto(address(html))
            if ready:
                page.wait_for_function(ready)
            if before:
                page.evaluate(before)
            seen = set(MARKER.findall(page.evaluate(shown)))
            pages[name] = {"built": True, "shown": [m for m in markers if m in seen],
                           "hidden": [m for m in markers if m not in seen]}
            if root is not None and (links := page.evaluate(LINKS)):
                pages[name]["links"] = {text: _leads_to(href, html, root, by_html) for text, href in links}
        browser.close()
    return pages


def _leads_to(href: str, html: Path, root: Path, by_html: dict[Path, str]) -> dict[str, str]:
    """The built link `href` on the page `html`: the source page whose built file it names, and its
    fragment (an address elsewhere: the href alone)."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return {"href": href}
    path = (root / unquote(parts.path).lstrip("/")) if parts.path.startswith("/") else html.parent / unquote(parts.path)
    path = path.resolve() if parts.path else html.resolve()
    for candidate in (path, path / "index.html", path.with_name(path.name + ".html")):
        if candidate in by_html:
            return {"href": href, "page": by_html[candidate], "fragment": parts.fragment}
    return {"href": href}


def shown_text(html: Path | None, shown: str, before: str | None = None, address: Callable[[Path], str] = Path.as_uri,
               ready: str | None = None) -> str | None:
    """The innerText `shown` evaluates to on the built page `html` (None when it was not built);
    `address` and `ready` as record_pages'."""
    if html is None:
        return None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(address(html))
        if ready:
            page.wait_for_function(ready)
        if before:
            page.evaluate(before)
        text = str(page.evaluate(shown))
        browser.close()
    return text
