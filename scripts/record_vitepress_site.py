"""Records what the real VitePress build of tests/data/site-nav/vitepress shows: the site is built
with VitePress (its default theme), each built page loaded in headless Chromium, and a marker
(`marker-…`) of a source page, or of a file it includes (`<!--@include: …-->`), counted shown when
it is in the innerText of the page's content (`.vp-doc`, a home page's `.VPHome`). A source file the build wrote no page for
is recorded as not built; a built page's heading ids are recorded in order, and the innerText of
the pages in TEXT_OF whole. The build is served over HTTP and each page read once Vue has hydrated
it, as a visitor's browser shows it (a `<ClientOnly>` renders only then). `<details>` are opened and every tab of a code group shown first (what a
click shows counts as shown); the same for tests/data/site-nav/vitepress-src (its pages in `src/`,
`srcDir`, published with `cleanUrls`). Each source file is matched to the page the build wrote for it by the
build's own page data (`relativePath` and `filePath` in `assets/*.lean.js`: rewrites, srcDir); a
dynamic route's template is recorded with the pages generated from it. For each built page also:
its `<title>`, its `# heading`, its `<html lang>`, its `relativePath`, the place its sidebar shows
it in (the texts of the sidebar groups holding the link that leads to it, as the server rendered
them), and where each `linkto-` link leads. Writes tests/data/site-nav/<sample>.shown.json, which
tests/test_site_vitepress.py and tests/test_page_links.py compare docschat's chunks to.

VitePress is not a docschat dependency: install it in a throwaway folder, not the project's.

    mkdir /tmp/vp && cd /tmp/vp && npm install vitepress@2.0.0-alpha.19 vue
    .venv/bin/python scripts/record_vitepress_site.py /tmp/vp
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _shown_markers import _leads_to, record_pages, shown_text
from playwright.sync_api import sync_playwright

SITES = Path(__file__).parent.parent / "tests" / "data" / "site-nav"
# Each sample site and its srcDir (its config's, where its pages are: a page's filePath is relative to it).
SAMPLES = {"vitepress": "", "vitepress-src": "src"}
INCLUDE = re.compile(r"<!--\s*@include:\s*(.*?)\s*-->|^[ >]*<<<\s*(.*?)\s*$", re.MULTILINE)
# A home page's hero and features are outside its `.vp-doc`, in its `.VPHome`.
MAIN = "(document.querySelector('.VPHome') || document.querySelector('.vp-doc') || document.body).innerText"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.vp-code-group .blocks > div').forEach((block) => { block.style.display = 'block' })
}"""
HYDRATED = "() => Boolean(document.querySelector('#app') && document.querySelector('#app').__vue_app__)"
TEXT_OF = ("guide/boxes.md", "guide/snippets.md")  # pages whose innerText is recorded whole
HEADING_ID = re.compile(r'<h[1-6] id="([^"]+)"')
PAGE_DATA = re.compile(r"JSON\.parse\(`(.*?)`\)", re.DOTALL)
# The page's <title>, heading, language, and each sidebar link with the groups it stands in (a group
# is a sidebar item holding items; a group's own link stands in it).
NAVIGATION = """() => {
  const sidebar = []
  for (const a of document.querySelectorAll('#VPSidebarNav a')) {
    const place = []
    for (let item = a.closest('.VPSidebarItem'); item; item = item.parentElement.closest('.VPSidebarItem')) {
      const text = item.querySelector(':scope > .item .text')
      if (item.querySelector(':scope > .items') && text) place.unshift(text.textContent.trim())
    }
    sidebar.push([a.getAttribute('href'), place])
  }
  const h1 = document.querySelector('.vp-doc h1')
  const links = Array.from(document.querySelectorAll('a[href^="/"]')).map((a) => a.getAttribute('href'))
  return {title: document.title, lang: document.documentElement.lang, sidebar, links,
          h1: h1 ? h1.innerText.replace(/\u200b/g, '').trim() : null}
}"""


def _page_data(dist: Path) -> list[dict]:
    """The build's data of each page it wrote (relativePath, filePath, params of a dynamic route)."""
    found = []
    for script in sorted((dist / "assets").glob("*.lean.js")):
        match = PAGE_DATA.search(script.read_text())
        if match and '"relativePath"' in match.group(1):
            # A JavaScript template literal: `\\`, `\``, `\$` stand for the character after the backslash.
            found.append(json.loads(re.sub(r"\\([\\`$])", r"\1", match.group(1))))
    return found


def _navigation(pages: dict[str, dict], built: dict[str, Path], dist: Path) -> None:
    """Each built page's title, heading, language and place, as its own sidebar shows it, and its
    `url`: the address the build's links (sidebar, home, previous and next) give it."""
    by_html = {html.resolve(): name for name, html in built.items()}
    urls: dict[str, str] = {}
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for name, html in built.items():
            page.goto(html.as_uri())
            shown = page.evaluate(NAVIGATION)
            place = next((where for href, where in shown["sidebar"]
                          if _leads_to(href, html, dist, by_html).get("page") == name), None)
            pages[name].update({"title": shown["title"], "h1": shown["h1"], "lang": shown["lang"],
                                **({"place": place} if place is not None else {})})
            for href in shown["links"]:
                if (to := _leads_to(href, html, dist, by_html)).get("page") and not to["fragment"]:
                    urls.setdefault(to["page"], href)
        browser.close()
    for name, url in urls.items():
        pages[name]["url"] = url


def _included(site: Path, text: str, folder: Path, depth: int = 0) -> list[Path]:
    """The files the includes and code snippets in `text` name (relative to `folder`, `@/` to the
    srcDir `site`), and the files those includes include."""
    found: list[Path] = []
    for include, snippet in INCLUDE.findall(text):  # `<!--@include: …-->` and `<<< …` code snippets
        written = re.sub(r"(#[^\s{]+)?(\{\d*,\d*\})?$", "", include) if include else re.sub(
            r"(#[\w.-]+)?(\{[^}]*\})?\s*(\[.*\])?$", "", snippet)
        path = site / written.lstrip("@/") if written.startswith("@") else folder / written
        if path.is_file() and path not in found and depth < 3:  # a snippet's file is code: nothing of it pasted
            found += [path, *(_included(site, path.read_text(), path.parent, depth + 1) if include else [])]
    return found


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def record(install: Path, sample: str) -> None:
    src_dir = SAMPLES[sample]
    with tempfile.TemporaryDirectory() as work:
        site = Path(work) / "site"
        shutil.copytree(SITES / sample, site)
        (site / "node_modules").symlink_to(install / "node_modules")
        build = subprocess.run(["node", str(install / "node_modules" / "vitepress" / "bin" / "vitepress.js"), "build"],
                               cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"vitepress build failed:\n{build.stdout}\n{build.stderr}")
        dist = site / ".vitepress" / "dist"
        data = _page_data(dist)
        # A source file → the page written for it (its relativePath, `.html`: cleanUrls changes links, not files).
        prefix = f"{src_dir}/" if src_dir else ""
        written = {prefix + d["filePath"]: d["relativePath"] for d in data if not d.get("params")}
        generated = {d["relativePath"]: prefix + d["filePath"] for d in data if d.get("params")}

        def built(name: str, _: Path) -> Path | None:
            if name not in written:
                return None
            html = dist / (written[name].removesuffix(".md") + ".html")
            return html if html.is_file() else None

        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(dist)))
        threading.Thread(target=server.serve_forever, daemon=True).start()

        def address(html: Path) -> str:
            return f"http://127.0.0.1:{server.server_address[1]}/{html.relative_to(dist).as_posix()}"

        sources = [(p.relative_to(site).as_posix(), p) for p in sorted(site.rglob("*.md"))
                   if "node_modules" not in p.relative_to(site).parts and ".vitepress" not in p.relative_to(site).parts]
        pages = record_pages(sources, built, MAIN, OPEN_EVERYTHING, root=dist,
                             pasted=lambda text, source: _included(site / src_dir, text, source.parent),
                             address=address, ready=HYDRATED)
        for name, page in pages.items():  # the ids its build gave the page's headings, in order
            if page["built"] and (html := built(name, site / name)) is not None:
                page["heading_ids"] = HEADING_ID.findall(html.read_text())
                page["relativePath"] = written[name]
        _navigation(pages, {name: html for name, source in sources if (html := built(name, source))}, dist)
        texts = {name: shown_text(built(name, site / name), MAIN, OPEN_EVERYTHING, address, HYDRATED)
                 for name in TEXT_OF if (site / name).is_file()}
        server.shutdown()
        version = json.loads((install / "node_modules" / "vitepress" / "package.json").read_text())["version"]
    recording = {"renderer": f"vitepress {version} (default theme), served; Chromium innerText of .vp-doc (a "
                             "home page's .VPHome) once hydrated, details and code group tabs opened; title, "
                             "heading, lang and sidebar place of each page",
                 "pages": pages, "generated": generated, "texts": texts}
    recorded = SITES / f"{sample}.shown.json"
    recorded.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":
    for name in SAMPLES:
        record(Path(sys.argv[1]), name)
