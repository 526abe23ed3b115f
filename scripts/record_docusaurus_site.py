"""Records what the real Docusaurus build of tests/data/site-nav/docusaurus shows: the site is built
with Docusaurus 3 (`docusaurus build`), each built doc loaded in headless Chromium, and a marker
(`marker-…`) of a source doc counted shown when it is in the innerText of the doc's `<article>`.
What a reader opens by a click counts as shown: every tab panel and `<details>` is opened first (a
tab's text is the page's text, one click away). Every docs instance's docs are recorded, each with
the URL Docusaurus published it at and its place in its sidebar (the build's own metadata). Writes tests/data/site-nav/docusaurus.shown.json,
which tests/test_site_navigation.py compares docschat's chunks to.

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@19 react-dom@19
    .venv/bin/python scripts/record_docusaurus_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "docusaurus"
RECORDED = SITE.parent / "docusaurus.shown.json"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('[role=tabpanel][hidden]').forEach((panel) => panel.removeAttribute('hidden'))
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('details > div').forEach((body) => { body.style.display = 'block'; body.style.height = 'auto' })
}"""
SHOWN = "(document.querySelector('article') || document.body).innerText"


def published_docs(site: Path) -> dict[str, dict[str, object]]:
    """Each doc of every docs instance, as Docusaurus itself published it: its URL (`permalink`)
    and the categories of the sidebar it stands in (`place`, absent for a doc no sidebar lists),
    read from the metadata the build generates (.docusaurus/docusaurus-plugin-content-docs/<id>/)."""
    generated = site / ".docusaurus" / "docusaurus-plugin-content-docs"
    places: dict[str, list[str]] = {}  # a URL the sidebars link to → the categories it stands in

    def walk(items: list[dict], place: list[str]) -> None:
        for item in items:
            if item.get("type") == "link" and item.get("docId"):
                places.setdefault(item["href"].rstrip("/"), place)
            elif item.get("type") == "category":
                inner = [*place, item["label"]]
                if item.get("href"):  # the category's own doc
                    places.setdefault(item["href"].rstrip("/"), inner)
                walk(item.get("items", []), inner)

    docs: dict[str, dict[str, object]] = {}
    for version in sorted(generated.glob("*/p/*.json")):
        for sidebar in json.loads(version.read_text())["version"].get("docsSidebars", {}).values():
            walk(sidebar, [])
    for meta in sorted(generated.glob("*/site-*.json")):
        doc = json.loads(meta.read_text())
        entry: dict[str, object] = {"permalink": doc["permalink"]}
        if doc["permalink"].rstrip("/") in places:
            entry["place"] = places[doc["permalink"].rstrip("/")]
        docs[doc["source"].removeprefix("@site/")] = entry
    return docs


def marker_urls(out: Path, marker: re.Pattern[str]) -> dict[str, list[str]]:
    """Each marker of the built site `out` → the URLs of the pages it is on."""
    urls: dict[str, list[str]] = {}
    for html in sorted(out.rglob("*.html")):
        url = "/" + html.relative_to(out).as_posix().removesuffix("index.html").removesuffix(".html")
        for found in sorted(set(marker.findall(html.read_text()))):
            urls.setdefault(found, []).append(url)
    return urls


def built_site(node_modules: Path, source: Path, work: Path) -> tuple[Path, Path]:
    """`docusaurus build` of a copy of the site `source` in `work`: the copy and the build's folder.
    Exits naming the build's output when it fails."""
    site, out = work / "site", work / "build"
    shutil.copytree(source, site)
    (site / "node_modules").symlink_to(node_modules)
    # The site's own package.json: webpack otherwise takes the nearest one above the temporary
    # folder, and a `"type": "module"` there breaks the build (require.resolveWeak).
    (site / "package.json").write_text('{"name": "acme-site", "private": true}\n')
    build = subprocess.run(["node", str(node_modules / "@docusaurus" / "core" / "bin" / "docusaurus.mjs"), "build",
                            "--out-dir", str(out)], cwd=site, capture_output=True, text=True)
    if build.returncode:
        sys.exit(f"docusaurus build failed:\n{build.stdout}\n{build.stderr}")
    return site, out


def main(node_modules: Path) -> None:
    version = json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory() as work:
        site, out = built_site(node_modules, SITE, Path(work))
        docs = published_docs(site)
        sources = [(source.relative_to(SITE).as_posix(), source) for source in sorted(SITE.rglob("*.md*"))]

        def built(name: str, _: Path) -> Path | None:
            page = out / str(docs[name]["permalink"]).strip("/") / "index.html" if name in docs else None
            return page if page is not None and page.is_file() else None

        pages = record_pages(sources, built, SHOWN, OPEN_EVERYTHING, root=out)
        for name, page in pages.items():
            page.update(docs.get(name, {}))
    record = {"renderer": f"Docusaurus {version}; Chromium innerText of the doc's <article>, tabs and details opened; "
                          "each doc's permalink and sidebar place from the build's own metadata",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
