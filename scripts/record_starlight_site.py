"""Records what the real Starlight build of tests/data/site-nav/starlight shows: the site is built
with Astro and @astrojs/starlight, and for each Markdown file of it: whether the build wrote a page
of it (a fallback page, Starlight's copy of a page for a locale that lacks it, is no file's), at
which URL, whether the page is in the site's search (its `<main>` has `data-pagefind-body`), the ids
of its content's headings in order, and which of its markers (`marker-…`) the page shows (headless
Chromium's innerText of the banner, the hero and `.sl-markdown-content`, every tab panel and
`<details>` opened first; the build served over HTTP, so that its stylesheets, linked from the
site's root, apply: `sl-hidden`, the config's `customCss`). The
sidebar of each locale's home page is recorded too: each link's href under the labels of the groups
holding it. Writes tests/data/site-nav/starlight.shown.json, which tests/test_site_starlight.py
compares docschat's pages and chunks to.

Astro and Starlight are not docschat dependencies, and Astro 7 wants Node 22: install them in a
throwaway folder, not the project's.

    mkdir /tmp/sl && cd /tmp/sl && npm install @astrojs/starlight@0.41.7 astro@7.1.6
    mkdir /tmp/node22 && cd /tmp/node22 && npm install node@22   # when the system's Node is older
    .venv/bin/python scripts/record_starlight_site.py /tmp/sl [/tmp/node22/node_modules/.bin/node]
"""

from __future__ import annotations

import html as html_lib
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

from _shown_markers import record_pages

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "starlight"
# The banner and a hero (front matter `banner`, `hero`) are shown above the page's content.
MAIN = ("['.sl-banner', '.hero', '.sl-markdown-content'].map((query) => document.querySelector(query))"
        ".filter(Boolean).map((element) => element.innerText).join('\\n')")
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('[role=tabpanel]').forEach((panel) => { panel.hidden = false })
}"""
MARKER = re.compile(r"marker-[a-z0-9-]+")
IMPORTED_MARKDOWN = re.compile(r"""^import\s+\w+\s+from\s+["'](\.{1,2}/[^"']+\.mdx?)["']""", re.MULTILINE)  # an MDX page's partials
CONTENT = re.compile(r'<div class="sl-markdown-content">(.*?)</div>\s*<footer', re.DOTALL)
HEADING_ID = re.compile(r'<h[2-6]\b[^>]*?\sid="([^"]+)"')  # `class` may come first (the footnotes' heading)
LOCALES = ("fr",)  # the sample's locales but its root: a page of another locale's URL is a fallback copy
SIDEBAR = re.compile(r'<ul class="top-level[^"]*">(.*?)</nav>', re.DOTALL)
TOKEN = re.compile(r'<summary[^>]*>.*?<span class="large[^"]*"[^>]*>(.*?)</span>|<a href="([^"]+)"|</details>', re.DOTALL)


def _sidebar(page: str) -> list[list[str]]:
    """Each sidebar link of the built page, as [group label, …, href]."""
    nav = SIDEBAR.search(page)
    if nav is None:
        return []
    found, groups = [], []
    for token in TOKEN.finditer(nav.group(1)):
        label, href = token.group(1), token.group(2)
        if label is not None:
            groups.append(html_lib.unescape(re.sub(r"<[^>]+>", "", label)).strip())
        elif href is not None and href.startswith("/"):
            found.append([*groups, href])
        elif groups:
            groups.pop()
    return found


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def record(install: Path, node: str) -> None:
    with tempfile.TemporaryDirectory() as work:
        site = Path(work) / "site"
        shutil.copytree(SITE, site)
        (site / "node_modules").symlink_to(install / "node_modules")
        (site / "package.json").write_text('{"type": "module"}\n')
        build = subprocess.run([node, str(install / "node_modules" / "astro" / "bin" / "astro.mjs"), "build"],
                               cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"astro build failed:\n{build.stdout}\n{build.stderr}")
        dist = site / "dist"
        sources = [(p.relative_to(site).as_posix(), p) for p in sorted(site.rglob("*.md*"))
                   if not {"node_modules", "dist"} & set(p.relative_to(site).parts)]
        # The page each source was built as: the one of its locale whose content holds its markers
        # (a locale's fallback copy of a page it lacks holds them too).
        owners: dict[str, Path] = {}
        for built in sorted(dist.rglob("*.html")):
            text = built.read_text()
            content = CONTENT.search(text)
            if content is None:
                continue
            locale = built.relative_to(dist).parts[0] if built.relative_to(dist).parts[0] in LOCALES else ""
            for name, source in sources:
                if locale != next((code for code in LOCALES if name.startswith(f"src/content/docs/{code}/")), ""):
                    continue
                # A `_` file is no page (docsLoader's `[^_]*`): its text is the importing page's.
                markers = set(MARKER.findall(source.read_text())) if not source.name.startswith("_") else set()
                if markers and markers & set(MARKER.findall(content.group(1))):
                    owners.setdefault(name, built)
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(dist)))
        threading.Thread(target=server.serve_forever, daemon=True).start()

        def address(html: Path) -> str:
            return f"http://127.0.0.1:{server.server_address[1]}/{html.relative_to(dist).as_posix()}"

        pages = record_pages(sources, lambda name, _: owners.get(name), MAIN, OPEN_EVERYTHING, address=address,
                             pasted=lambda text, source: [source.parent / path for path in IMPORTED_MARKDOWN.findall(text)])
        server.shutdown()
        for name, page in pages.items():
            owner = owners.get(name)
            if owner is None:
                continue
            text = owner.read_text()
            url = "/" + owner.relative_to(dist).as_posix().removesuffix("index.html")
            content = CONTENT.search(text)
            page["url"] = url.removesuffix(".html")
            page["searchable"] = bool(re.search(r"<main[^>]*data-pagefind-body", text))
            page["heading_ids"] = HEADING_ID.findall(content.group(1)) if content else []
        sidebars = {locale: _sidebar((dist / locale / "index.html").read_text())
                    for locale in ("", "fr/") if (dist / locale / "index.html").is_file()}
        version = json.loads((install / "node_modules" / "@astrojs" / "starlight" / "package.json").read_text())["version"]
        astro = json.loads((install / "node_modules" / "astro" / "package.json").read_text())["version"]
    recording = {"renderer": f"@astrojs/starlight {version}, astro {astro}, served; Chromium innerText of "
                             ".sl-banner, .hero and .sl-markdown-content, tab panels and details opened",
                 "pages": pages, "sidebars": sidebars}
    recorded = SITE.parent / "starlight.shown.json"
    recorded.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":
    record(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "node")
