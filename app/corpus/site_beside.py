"""A site elsewhere in the repository that builds the source's folder (app/corpus/site.py's
site_commit fails the source then)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping

import yaml

from app.corpus.mkdocs_yaml import MkDocsLoader, env_defaults
from app.corpus.site_docusaurus import docusaurus_docs
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
            builds = [str(config.get("docs_dir") or "docs")]
        else:
            builds = [instance.path for instance in docusaurus_docs(name, text)]
        for built in builds:
            built = posixpath.normpath(posixpath.join(root, built))
            if folder == built or folder.startswith(built + "/") or built.startswith(folder + "/") or folder == ".":
                if built.startswith(root + "/") or not root:
                    continue  # inside the site's folder: enclosing_site's, or the site itself
                return (f"{folder!r} holds the docs the site {path!r} builds (from {built!r}, outside the site's folder); "
                        "docschat reads a site from its own folder only, so these pages would be read as plain Markdown, "
                        "drafts included: keep the docs inside the site's folder and set the source's folder to it")
    return None


def _above(folder: str) -> set[str]:
    """The folders holding `folder` (itself included), "" for the repository's root."""
    parts = [p for p in folder.split("/") if p not in ("", ".")]
    return {"/".join(parts[:n]) for n in range(len(parts) + 1)}
