"""A site elsewhere in the repository that builds the source's folder (app/corpus/site.py's
site_commit fails the source then)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping

import yaml

from app.corpus.mkdocs_yaml import MkDocsLoader, env_defaults
from app.corpus.site_docusaurus import docusaurus_docs, docusaurus_served_docs
from app.corpus.site_model import MKDOCS_FILES


def building_site(folder: str, read: Callable[[list[str]], Mapping[str, str]],
                  configs: Callable[[], list[str]]) -> str | None:
    """Why the source's folder cannot be read, None when it can: a Docusaurus or MkDocs site
    elsewhere in the repository builds its pages (a docs plugin's `path: '../docs'`, `docs_dir:
    ../docs`). docschat reads a site's configuration from the source's folder only, so its pages
    would be read as plain Markdown: drafts, partials and pages outside the navigation indexed."""
    folder = posixpath.normpath(folder.strip("/") or ".")
    for path, text in read([p for p in configs() if posixpath.dirname(p) not in _above(folder)]).items():
        root, name = posixpath.split(path)
        if name in MKDOCS_FILES:
            try:
                config = yaml.load(text, Loader=MkDocsLoader)
            except (yaml.YAMLError, RecursionError):
                continue
            config = env_defaults(config, path, []) if isinstance(config, dict) else {}
            builds, unreleased = [str(config.get("docs_dir") or "docs")], set[str]()
        else:
            builds, unreleased = _docusaurus_builds(root, name, text, read, folder)
        for built in builds:
            built = posixpath.normpath(posixpath.join(root, built))
            if folder == built or folder.startswith(built + "/") or built.startswith(folder + "/") or folder == ".":
                if built.startswith(root + "/") or not root:
                    continue  # inside the site's folder: enclosing_site's, or the site itself
                if built in unreleased:
                    return (f"{folder!r} holds the unreleased docs (/docs/next/) the site {path!r} builds; its docs "
                            f"root serves a released version, from the site's folder: set the source's folder to {root!r}")
                return (f"{folder!r} holds the docs the site {path!r} builds (from {built!r}, outside the site's folder); "
                        "docschat reads a site from its own folder only, so these pages would be read as plain Markdown, "
                        "drafts included: keep the docs inside the site's folder and set the source's folder to it")
    return None


def _docusaurus_builds(root: str, name: str, text: str, read: Callable[[list[str]], Mapping[str, str]],
                       folder: str) -> tuple[list[str], set[str]]:
    """The docs folders (from the site's) of a Docusaurus config's instances that docschat would
    read, and those (from the repository's root) holding only an unreleased version. A folder
    outside the site's that holds only the unreleased version, beside a released one the docs root
    serves from inside the site's folder (Jest's `path: '../docs'` and website/versioned_docs), is
    left out as any unreleased version is: a source above the site
    reads the site (site_root.py); a source that is that folder is told the site's."""
    instances = docusaurus_docs(name, text)
    wanted = [posixpath.join(root, f"{'' if i.id == 'default' else i.id + '_'}versions.json") for i in instances]
    files = {posixpath.basename(p): t for p, t in read(wanted).items()}
    builds: list[str] = []
    unreleased: set[str] = set()
    for instance in docusaurus_served_docs(name, text, files):
        own = posixpath.normpath(posixpath.join(root, instance.docs))
        if instance.path != instance.docs and not instance.path.startswith("../"):  # a released version is served
            unreleased.add(own)
            if folder == "." or root.startswith(folder + "/"):
                continue
        builds.append(instance.docs)
    return builds, unreleased


def _above(folder: str) -> set[str]:
    """The folders holding `folder` (itself included), "" for the repository's root."""
    parts = [p for p in folder.split("/") if p not in ("", ".")]
    return {"/".join(parts[:n]) for n in range(len(parts) + 1)}
