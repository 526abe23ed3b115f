"""What decides how a page reads besides its files: part of every page's key.

A page is kept from the last sync when its key is unchanged (design/page-keys.md). docschat's
version stands for the reading code in a release, but not in a checkout: a reader fixed in Python
(myst.py, a site's navigation) left pages indexed by the old one until their files changed, since
only the bundle's hash was in the key (found on LXD's docs, session 35). So the key holds the
reading code itself, and the versions of the parsers it runs.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
from pathlib import Path

# The distributions that read pages or code: a new version may read a page differently.
READING_DISTRIBUTIONS = (
    "markdown-it-py", "mdit-py-plugins", "markdown", "pymdown-extensions", "markdown-include-variants",
    "mdx-include", "jinja2", "pyyaml", "docutils", "mini-racer", "tree-sitter", "tree-sitter-typescript",
    "tree-sitter-javascript",
)
_CORPUS = Path(__file__).parent
_NOT_RUN = frozenset({"node_modules", "src", "__pycache__"})  # the bundle runs, not its sources


def code_digest(root: Path) -> str:
    """The hash of the reading code under `root`: its Python modules and data files, and the built
    bundles in `js/` (not their sources or node_modules: the bundle is what runs)."""
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in _NOT_RUN]
        files += [Path(folder, name) for name in names if name.endswith((".py", ".json", ".js"))]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "-"


@functools.cache
def reading_version() -> str:
    """The reading code's hash and the parsers' versions, as one string (read once a process)."""
    versions = ",".join(f"{name}={_version(name)}" for name in READING_DISTRIBUTIONS)
    return f"{code_digest(_CORPUS)};{versions}"
