"""A link from one page of a site to another's file, written where the site publishes that page.

Docusaurus, MkDocs and MyST (Sphinx) turn a link to a page's file (`[caching](../query-builder/6-caching.md#x)`)
into a link to the page (`/docs/query-builder/caching#x`); a reader of the built site follows the
page's address, never the file. Left as written, a chunk would carry a path that leads nowhere: the
widget draws only addresses it can follow (so the words lose their link), and `docschat ask` and
MCP show the source path. The page reader marks each link target it writes (reader.LINK_MARK);
compose gives it this function, which resolves the target as those sites' builds resolve a file
link: relative to the linking page, to a page file of the site."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from functools import partial
from urllib.parse import unquote, urlsplit

from app.corpus.chunker import page_route
from app.corpus.myst_xref import SiteTitles
from app.corpus.site_model import MKDOCS_SUFFIXES, Site
from app.corpus.sources import Source


def page_link(page: str, files: Mapping[str, str], site: Site, source: Source,
              titles: SiteTitles | None = None) -> Callable[[str], str]:
    """published_link for the page at `page` of `site` (paths in the site's folder), addressed as
    its chunks are (chunker.chunk_page: the source's base URL and prefix); `titles` a MyST site's
    labels and documents, which its extensionless link targets name."""
    # compose's PAGE_SUFFIXES, and a Sphinx site's `.rst` (myst-parser links `[x](page.rst)` to the page)
    suffixes = MKDOCS_SUFFIXES if site.framework == "mkdocs" else (".md", ".mdx", *site.rst_suffixes)

    def address(target: str) -> str:
        return (source.base_url or "") + page_route(site.url_path(target), source.url_prefix)

    if site.framework == "vitepress":
        return partial(vitepress_link, page=page, files=files, site=site, address=address)
    reference = None if titles is None else partial(titles.target, page=page, files=files)
    return partial(published_link, page=page, files=files, suffixes=suffixes, address=address, reference=reference)


def published_link(href: str, *, page: str, files: Mapping[str, str], suffixes: tuple[str, ...],
                   address: Callable[[str], str],
                   reference: Callable[[str], tuple[str, str] | None] | None = None) -> str:
    """`href` as written on the page at `page`, or the `address` of the page file it names. Only
    relative links to a file with a page suffix that the site holds are rewritten: an address
    (`https:`, `/route`, `#anchor`) is already where the browser goes, and a link without a suffix
    is resolved by the browser against the page's own URL, which a build leaves as written; but on
    a MyST page (`reference`) such a link names a label or a document, as Sphinx resolves it."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return href
    path = unquote(parts.path)
    if reference is not None and not parts.fragment and "." not in posixpath.basename(path):
        found = reference(path)
        return href if found is None or not found[0].endswith(suffixes) else (
            address(found[0]) + (f"#{found[1]}" if found[1] else ""))
    if not path.endswith(suffixes):
        return href
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
    if target.startswith("../") or target == ".." or target == page and not parts.fragment:
        return href
    if target not in files:  # looked up through compose's recorder: the page's key depends on it
        return href
    return address(target) + (f"#{parts.fragment}" if parts.fragment else "")


def vitepress_link(href: str, *, page: str, files: Mapping[str, str], site: Site, address: Callable[[str], str]) -> str:
    """`href` on the VitePress page `page`, or the address of the page it leads to. VitePress's
    link rule (normalizeHref) writes a link to a page (`x.md`, `x`, `x.html`, `/guide/x`) as that
    page's URL and leaves relative ones relative: the browser resolves them against the page's
    published URL (its rewritten path), so they are resolved from there, and the page found by its
    published path (`published_files`: srcDir, rewrites)."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return href
    path = unquote(parts.path)
    name = "" if path.endswith("/") else posixpath.basename(path)
    if "." in name.strip(".") and not name.endswith((".md", ".html")):  # an asset (treatAsHtml): as written
        return href
    written = path[1:] if path.startswith("/") else posixpath.join(posixpath.dirname(_published(site, page)), path)
    target = posixpath.normpath(written)
    if target.startswith("../") or target == "..":
        return href
    target = "index" if target == "." else target + "/index" if written.endswith("/") else target
    target = target.removesuffix(".html").removesuffix(".md") + ".md"
    found = site.published_files.get(target, posixpath.normpath(site.docs_prefix + target))
    # A file rewritten elsewhere publishes nothing at its own path; the lookup goes through compose's
    # recorder, so the page's key depends on the file it links to.
    if _published(site, found) != target or found not in files:
        return href
    return address(found) + (f"#{parts.fragment}" if parts.fragment else "")


def _published(site: Site, path: str) -> str:
    """Where VitePress publishes the page at `path`: its relativePath (`.md`)."""
    url = site.url_path(path)
    return url[:-5] + ".md" if url.endswith(".html") else url
