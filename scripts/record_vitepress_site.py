"""Records what the real VitePress build of tests/data/site-nav/vitepress shows: the site is built
with VitePress (its default theme), each built page loaded in headless Chromium, and a marker
(`marker-…`) of a source page, or of a file it includes (`<!--@include: …-->`), counted shown when
it is in the innerText of the page's content (`.vp-doc`, a home page's `.VPHome`). A source file the build wrote no page for
is recorded as not built; a built page's heading ids are recorded in order, and the innerText of
the pages in TEXT_OF whole. The build is served over HTTP and each page read once Vue has hydrated
it, as a visitor's browser shows it (a `<ClientOnly>` renders only then). `<details>` are opened and
every tab of a code group shown first (what a click shows counts as shown). Writes tests/data/site-nav/vitepress.shown.json, which
tests/test_site_vitepress.py compares docschat's chunks to.

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

from _shown_markers import record_pages, shown_text

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "vitepress"
INCLUDE = re.compile(r"<!--\s*@include:\s*(.*?)\s*-->")
# A home page's hero and features are outside its `.vp-doc`, in its `.VPHome`.
MAIN = "(document.querySelector('.VPHome') || document.querySelector('.vp-doc') || document.body).innerText"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('.vp-code-group .blocks > div').forEach((block) => { block.style.display = 'block' })
}"""
HYDRATED = "() => Boolean(document.querySelector('#app') && document.querySelector('#app').__vue_app__)"
TEXT_OF = ("guide/boxes.md",)  # pages whose innerText is recorded whole
HEADING_ID = re.compile(r'<h[1-6] id="([^"]+)"')


def _included(site: Path, text: str, folder: Path, depth: int = 0) -> list[Path]:
    """The files the includes in `text` name (relative to `folder`, `@/` to the site), and theirs."""
    found: list[Path] = []
    for written in INCLUDE.findall(text):
        written = re.sub(r"(#[^\s{]+)?(\{\d*,\d*\})?$", "", written)
        path = site / written.lstrip("@/") if written.startswith("@") else folder / written
        if path.is_file() and path not in found and depth < 3:
            found += [path, *_included(site, path.read_text(), path.parent, depth + 1)]
    return found


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def record(install: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        site = Path(work) / "site"
        shutil.copytree(SITE, site)
        (site / "node_modules").symlink_to(install / "node_modules")
        build = subprocess.run(["node", str(install / "node_modules" / "vitepress" / "bin" / "vitepress.js"), "build"],
                               cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"vitepress build failed:\n{build.stdout}\n{build.stderr}")
        dist = site / ".vitepress" / "dist"

        def built(name: str, _: Path) -> Path | None:
            html = dist / (name.removesuffix(".md") + ".html")  # cleanUrls off: guide/x.md → guide/x.html
            return html if html.is_file() else None

        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(dist)))
        threading.Thread(target=server.serve_forever, daemon=True).start()

        def address(html: Path) -> str:
            return f"http://127.0.0.1:{server.server_address[1]}/{html.relative_to(dist).as_posix()}"

        sources = [(p.relative_to(site).as_posix(), p) for p in sorted(site.rglob("*.md"))
                   if "node_modules" not in p.relative_to(site).parts and ".vitepress" not in p.relative_to(site).parts]
        pages = record_pages(sources, built, MAIN, OPEN_EVERYTHING, pasted=lambda text, source: _included(site, text, source.parent),
                             address=address, ready=HYDRATED)
        for name, page in pages.items():  # the ids its build gave the page's headings, in order
            if page["built"] and (html := built(name, site / name)) is not None:
                page["heading_ids"] = HEADING_ID.findall(html.read_text())
        texts = {name: shown_text(built(name, site / name), MAIN, OPEN_EVERYTHING, address, HYDRATED) for name in TEXT_OF}
        server.shutdown()
        version = json.loads((install / "node_modules" / "vitepress" / "package.json").read_text())["version"]
    recording = {"renderer": f"vitepress {version} (default theme), served; Chromium innerText of .vp-doc once "
                             "hydrated, details and code group tabs opened", "pages": pages, "texts": texts}
    recorded = SITE.parent / "vitepress.shown.json"
    recorded.write_text(json.dumps(recording, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":
    record(Path(sys.argv[1]))
