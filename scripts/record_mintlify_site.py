"""Records what Mintlify's published rendering packages show of tests/data/site-nav/mintlify: each
page compiled as Mintlify's server compiles it (@mintlify/common's getMdx: @mintlify/mdx with
Mintlify's remark and rehype plugins, snippet imports pasted first) and rendered to HTML with
@mintlify/components (scripts/record_mintlify_site.mjs), then loaded in headless Chromium with the
components' stylesheet; a marker (`marker-…`) of a page counts shown when it is in the innerText of
the page's article. What a reader opens by a click counts as shown: every tab panel and
`<details>` (accordions, expandables) is opened first. A tooltip's tip, rendered only while hovered,
is not in the page. Writes tests/data/site-nav/mintlify.shown.json, which
tests/test_site_navigation.py compares docschat's chunks to.

This is not the hosted renderer: `mint dev` (@mintlify/previewing) downloads Mintlify's site client
from releases.mintlify.com at run time. The client's mapping of a page's component names onto
@mintlify/components (ParamField → Property, Tab → Tabs.Item, …) is not published: the .mjs writes
it from the components' documentation, and the JSON names each name it had to leave unmapped.

The packages are not docschat dependencies: install them, at these versions, in a throwaway folder
(@mintlify/common 1.0.1211, the newest, needs an @mintlify/mdx 4.0.7 npm does not hold).

    mkdir /tmp/mint && cd /tmp/mint && npm init -y && npm install @mintlify/common@1.0.1183 \\
        @mintlify/mdx@4.0.6 @mintlify/components@1.0.19 react@19.3.1 react-dom@19.3.1
    .venv/bin/python scripts/record_mintlify_site.py /tmp/mint/node_modules [screenshots folder]
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "site-nav" / "mintlify"
RECORDED = SITE.parent / "mintlify.shown.json"
RENDER = Path(__file__).resolve().with_suffix(".mjs")
MARKER = re.compile(r"marker-[a-z0-9-]+")  # no marker is a part of another: each is sought as text
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('[role=tabpanel]').forEach((panel) => {
    panel.classList.remove('hidden'); panel.removeAttribute('hidden'); panel.removeAttribute('aria-hidden') })
  document.querySelectorAll('details').forEach((details) => { details.open = true })
}"""
SHOWN = "document.querySelector('article').innerText"


def _redirects(site: Path) -> list[tuple[re.Pattern[str], str]]:
    """docs.json's redirects (its `$ref` followed one level), as Mintlify matches their sources:
    `:name*` any rest of the path, `:name` one segment."""
    config = json.loads((site / "docs.json").read_text())
    redirects = config.get("redirects", [])
    if isinstance(redirects, dict) and "$ref" in redirects:
        redirects = json.loads((site / redirects["$ref"]).read_text())
    found = []
    for redirect in redirects:
        parts = re.split(r"(:\w+\*?)", redirect["source"])
        pattern = "".join((".*" if part.endswith("*") else "[^/]+") if part.startswith(":") else re.escape(part)
                          for part in parts)
        found.append((re.compile(pattern + "$"), redirect["destination"]))
    return found


def _markers(site: Path, name: str) -> list[str]:
    """The markers of a page and of the snippets it imports (`from "/snippets/…"`), theirs too."""
    text, seen, todo = "", set(), [name]
    while todo:
        seen.add(todo[-1])
        part = (site / todo.pop()).read_text()
        text += part
        todo += [s.lstrip("/") for s in re.findall(r"""from\s+["'](/snippets/[^"']+)["']""", part)
                 if s.lstrip("/") not in seen]
    return sorted(set(MARKER.findall(text)))


def rendered_site(node_modules: Path, site: Path, out: str) -> dict[str, Any]:
    """What scripts/record_mintlify_site.mjs renders of `site` into the folder `out`: each page's
    HTML file (`pages`) and the packages' versions (`versions`)."""
    # In the output folder: the code highlighter (twoslash) caches into ./.next.
    run = subprocess.run(["node", str(RENDER), str(node_modules), str(site), out], capture_output=True, text=True,
                         cwd=out)
    if run.returncode:
        sys.exit(f"rendering failed:\n{run.stdout}\n{run.stderr}")
    rendered: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return rendered


def evaluated_page(node_modules: Path, site: Path, name: str, script: str, before: str | None = None) -> tuple[Any, str]:
    """What `script` evaluates to on the page `name` of `site` as rendered_site renders it, loaded in
    headless Chromium (`before` run first), and the rendering packages' versions."""
    with tempfile.TemporaryDirectory() as out:
        rendered = rendered_site(node_modules, site, out)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(Path(rendered["pages"][name]).as_uri())
            if before:
                page.evaluate(before)
            value = page.evaluate(script)
            browser.close()
    return value, ", ".join(f"{package} {version}" for package, version in rendered["versions"].items())


def record_article(node_modules: Path, name: str, page: str) -> None:
    """Writes tests/data/<name>.shown.json: the lines of the article of the page `page` of the
    site tests/data/<name>, as evaluated_page shows it with every tab panel opened (the small
    one-page samples' recorders, record_mintlify_codeblock.py and record_mintlify_pipecat.py)."""
    site = SITE.parent.parent / name
    recorded = site.parent / f"{name}.shown.json"
    shown, versions = evaluated_page(node_modules, site, page, SHOWN, OPEN_EVERYTHING)
    record = {"renderer": f"{versions}; Chromium innerText of the article, every tab panel opened",
              "not_the_hosted_renderer": "the component mapping is scripts/record_mintlify_site.mjs's "
                                         "(the hosted client is not published)",
              "lines": [line for line in shown.splitlines() if line.strip()]}
    recorded.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(record['lines'])} lines recorded in {recorded}")


def main(node_modules: Path, screenshots: Path | None = None) -> None:
    redirects = _redirects(SITE)
    with tempfile.TemporaryDirectory() as out:
        rendered = rendered_site(node_modules, SITE, out)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        pages: dict[str, dict[str, object]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for name, html in sorted(rendered["pages"].items()):
                markers = _markers(SITE, name)
                assert not [m for m in markers for n in markers if m != n and m in n], f"{name}: a marker inside another"
                route = "/" + re.sub(r"\.mdx?$", "", name)
                redirect = next((to for source, to in redirects if source.match(route)), None)
                if redirect is not None:  # Mintlify serves the redirect, not the page
                    pages[name] = {"built": True, "redirect": redirect, "markers": markers}
                    continue
                if html is None:  # MDX could not parse it: the build reports it, the page shows a placeholder
                    pages[name] = {"built": False, "markers": markers}
                    continue
                page.goto(Path(html).as_uri())
                page.evaluate(OPEN_EVERYTHING)
                if screenshots is not None:  # to look at what was recorded
                    page.screenshot(path=str(screenshots / (name.replace("/", "_") + ".png")), full_page=True)
                # Text, not words: innerText glues inline neighbours ("string" "default" pills).
                shown = page.evaluate(SHOWN)
                pages[name] = {"built": True, "shown": [m for m in markers if m in shown],
                               "hidden": [m for m in markers if m not in shown]}
            browser.close()
    versions = ", ".join(f"{package} {version}" for package, version in rendered["versions"].items())
    record = {"renderer": f"{versions}; Chromium innerText of the page's article, tabs and details opened",
              "not_the_hosted_renderer": "the component mapping is scripts/record_mintlify_site.mjs's, "
                                         "written from Mintlify's component docs (the hosted client is not published)",
              "pages_rendered": "every page file; which the site publishes (docs.json's navigation, hidden, "
                                "noindex) is checked by test_only_the_pages_the_site_publishes_are_indexed",
              "unmapped_components": rendered["unmapped"], "warnings": rendered["warnings"], "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
