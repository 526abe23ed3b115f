"""Records what Chromium shows of the `css-*` and `snippet-*` differential probes: their HTML (written by
`PROBE_HTML=dir node scripts/record_probes.mjs`, as micromark or @mdx-js/mdx renders them) loaded
in headless Chromium, a marker shown when it is in `document.body.innerText` (or an image's alt).
Updates those probes in tests/data/markdown-probes/recorded.json.

Two things a visitor does or has that a bare page lacks are given first:
- every `<details>` is opened: its text shows on a click, as an `<Accordion>`'s does, and the browser's
  find-in-page searches it (the decision: a closed disclosure's text is indexed);
- the stylesheet of Tailwind's `hidden`, `invisible`, `visible`, `sr-only` and `md:block` utilities
  (Mintlify styles its pages with Tailwind; a page's `className="hidden"` is `display: none` there),
  at a desktop width.

A `css-tailwind-*` probe (its HTML holds the Tailwind utilities Mintlify compiles for it) is read
in every view its CSS tells apart: a phone's width (375 px), a desktop's, and each side of every
width a media query names (`min-width: 768px`: 767, 768, 769), light and dark (Tailwind's `dark`
class), and, where its CSS asks, with reduced motion, more contrast, forced colors, and a portrait
and a landscape window; a marker is shown when some view shows it (a phone's visitor reads what
`md:hidden` holds; no visitor reads what `md:hidden max-md:hidden` holds).

    PROBE_HTML=/tmp/probe-html NODE_MODULES=/tmp/x/node_modules node scripts/record_probes.mjs
    python scripts/record_probes_innertext.py /tmp/probe-html
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Literal

from playwright.sync_api import sync_playwright

RECORDED = Path(__file__).parent.parent / "tests" / "data" / "markdown-probes" / "recorded.json"
STYLESHEETS = RECORDED.parent / "stylesheets"
MARKER = re.compile(r"zz[a-z0-9]+")
TAILWIND = (".hidden{display:none}.invisible{visibility:hidden}.visible{visibility:visible}"
            ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
            "clip:rect(0,0,0,0);white-space:nowrap;border-width:0}"
            "@media (min-width:768px){.md\\:block{display:block}}")
# A `docusaurus-*` probe is shown in the elements Docusaurus 3's classic theme holds a doc in
# (theme-classic's DocItem/Layout and DocItem/Content: the `.theme-doc-markdown markdown` wrapper,
# its title's `<header>` first), so that a rule naming them applies as on the site.
DOCUSAURUS = ('<html lang="en" dir="ltr" class="docs-wrapper plugin-docs plugin-id-default docs-version-current '
              'docs-doc-page" data-theme="light"><body class="navigation-with-keyboard"><div id="__docusaurus">'
              '<nav class="navbar navbar--fixed-top">Probes</nav><div class="main-wrapper docsWrapper">'
              '<div class="docRoot"><main class="docMainContainer"><div class="container"><div class="row">'
              '<div class="col"><div class="docItemContainer"><article><div class="theme-doc-markdown markdown">'
              '<header><h1>Title</h1></header>{}</div></article></div></div></div></div></main></div></div></div>'
              '</body></html>')
OPEN_DETAILS = "document.querySelectorAll('details').forEach((d) => { d.open = true })"
SHOWN = "document.body.innerText + ' ' + [...document.images].map((i) => i.alt).join(' ')"
DARK = "(dark) => document.documentElement.classList.toggle('dark', dark)"
MOTIONS: tuple[Literal["no-preference", "reduce"], ...] = ("no-preference", "reduce")
CONTRASTS: tuple[Literal["no-preference", "more"], ...] = ("no-preference", "more")
FORCED: tuple[Literal["none", "active"], ...] = ("none", "active")
WIDTHS = re.compile(r"\((?:min|max)-width:\s*([\d.]+)(px|rem|em)\)")


Motion = Literal["no-preference", "reduce"]
Contrast = Literal["no-preference", "more"]
Forced = Literal["none", "active"]


def tailwind_views(css: str) -> list[tuple[int, int, bool, Motion, Contrast, Forced]]:
    """(width, height, dark, motion, contrast, forced colors): the views the CSS's media queries tell apart."""
    named = {round(float(n) * (1 if unit == "px" else 16)) for n, unit in WIDTHS.findall(css)}
    widths = sorted({375, 1280} | {w + d for w in named for d in (-1, 0, 1)})
    # A portrait and a landscape window at each width where the CSS asks (else 800 px high).
    heights = (lambda w: (w * 2, max(w // 2, 100))) if "orientation" in css else (lambda w: (800,))
    motions = MOTIONS if "prefers-reduced-motion" in css else MOTIONS[:1]
    contrasts = CONTRASTS if "prefers-contrast" in css else CONTRASTS[:1]
    forced = FORCED if "forced-colors" in css else FORCED[:1]
    return [(w, h, dark, m, c, f) for w in widths for h in heights(w) for dark in (False, True)
            for m in motions for c in contrasts for f in forced]


def main(folder: Path) -> None:
    recorded = json.loads(RECORDED.read_text())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    # Served as a site serves them (over HTTP, `/stylesheets/x.css` from the probes' stylesheets
    # folder, which the probes' compose holds as files of the source).
    shutil.copytree(STYLESHEETS, folder / "stylesheets", dirs_exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for html in sorted(folder.glob("*.html")):
            name = html.name.removesuffix(".html")
            if name.startswith("docusaurus-"):
                body = html.read_text().split("<body>", 1)[1].removesuffix("</body>")
                html.write_text('<!doctype html><meta charset="utf-8">' + DOCUSAURUS.format(body))
            page.goto(f"http://127.0.0.1:{server.server_port}/{html.name}", wait_until="load")
            if not name.startswith("css-tailwind-"):  # which holds the real utilities, in their order
                page.add_style_tag(content=TAILWIND)
            page.evaluate(OPEN_DETAILS)
            shown = set(MARKER.findall(page.evaluate(SHOWN)))
            views = tailwind_views(html.read_text().split("<body>", 1)[0]) if name.startswith("css-tailwind-") else []
            for width, height, dark, motion, contrast, forced in views:
                page.set_viewport_size({"width": width, "height": height})
                page.emulate_media(reduced_motion=motion, contrast=contrast, forced_colors=forced)
                page.evaluate(DARK, dark)
                shown |= set(MARKER.findall(page.evaluate(SHOWN)))
            page.set_viewport_size({"width": 1280, "height": 800})
            page.emulate_media(reduced_motion="no-preference", contrast="no-preference", forced_colors="none")
            markers = sorted({*recorded[name]["shown"], *recorded[name]["hidden"]})  # its snippets' too
            recorded[name] = {"renderer": recorded[name]["renderer"] + ", Chromium innerText",
                              "shown": [m for m in markers if m in shown], "hidden": [m for m in markers if m not in shown]}
        browser.close()
    server.shutdown()
    RECORDED.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"{len(list(folder.glob('*.html')))} probes recorded with Chromium")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
