"""Records where the real Docusaurus build publishes each file of tests/data/site-nav/docusaurus-versions,
a site in two locales (en, the default; fr) with three versions of its docs (docs/ the unreleased
"current", versioned_docs/version-2.0 the last released, version-1.0 an old one). Each Markdown file
holds one marker (`marker-ver-…`); the site is built with `docusaurus build` (every locale) and
every built HTML page searched for the markers: a file's URLs are the pages its marker is on
(none: never built). Writes tests/data/site-nav/docusaurus-versions.built.json, which
tests/test_site_docusaurus_versions.py compares docschat's pages and URLs to.

Given a site's name, records that site of tests/data/site-nav the same way:
docusaurus-version-paths (a version and the locales published at paths of their own, the default
locale's copies giving their own `slug` and `id`) is recorded into docusaurus-version-paths.built.json.

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@18 react-dom@18
    .venv/bin/python scripts/record_docusaurus_versions_site.py /tmp/docu/node_modules [docusaurus-version-paths]
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from record_docusaurus_site import built_site, marker_urls

SITES = Path(__file__).parent.parent / "tests" / "data" / "site-nav"
MARKER = re.compile(r"marker-ver-[a-z0-9-]+")


def main(node_modules: Path, name: str = "docusaurus-versions") -> None:
    site, recorded = SITES / name, SITES / f"{name}.built.json"
    version = json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory() as work:
        _, out = built_site(node_modules, site, Path(work))
        urls = marker_urls(out, MARKER)
    sources = {}
    for source in sorted(site.rglob("*.md")):
        markers = MARKER.findall(source.read_text())
        sources[source.relative_to(site).as_posix()] = sorted({u for m in markers for u in urls.get(m, [])})
    recorded.write_text(json.dumps({"docusaurus": version, "urls": sources}, indent=1, ensure_ascii=False) + "\n")
    print(f"{recorded}: {sum(map(bool, sources.values()))} of {len(sources)} files built (Docusaurus {version})")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), *sys.argv[2:3])
