"""The files of a source's repository at the commit read, by their path from its root: what a
MyST page's `{include}` may read beyond the site's folder (app/corpus/myst_include.py), as Sphinx
reads any file of its checkout. Read from git's objects, never the disk: a path leading out of the
repository is not asked for, a symbolic link is not followed (it is no file here), and a path is
a path, never a pattern (`--literal-pathspecs`)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from pathlib import Path

from app.corpus.git_source import _git, decode_text

# A page key's dependency on a file of the repository: this, then its path from the root. No path
# of the source's tree starts with `/` (myst_xref's EVERY_MARKDOWN_PAGE has no second `/`).
REPOSITORY = "/repository/"


def in_repository(folder: str, path: str) -> str | None:
    """`path` (relative to `folder`, a folder of the repository) from the repository's root; None
    when it leads out of the repository."""
    joined = posixpath.normpath(posixpath.join(folder, path))
    return None if joined in (".", "..") or joined.startswith(("../", "/")) else joined


class RepositoryFiles(Mapping[str, str]):
    """The repository `repo` at `commit`, a file's listing and text read when asked (one `git
    ls-tree` and one `git cat-file` a file: a page includes a few)."""

    def __init__(self, repo: Path, commit: str) -> None:
        self.repo, self.commit = repo, commit
        self._shas: dict[str, str | None] = {}

    def blob_id(self, path: str) -> str | None:
        """The blob id of the file at `path` (None: no such file, or a link or folder there)."""
        if path not in self._shas:
            found = None
            listing = _git(self.repo, "--literal-pathspecs", "ls-tree", "-z", "--full-tree", self.commit, "--", path)
            for record in filter(None, listing.split(b"\0")):
                meta, _, name = record.partition(b"\t")
                mode, kind, sha = meta.decode().split()
                if name.decode("utf-8", "backslashreplace") == path and kind == "blob" and mode != "120000":
                    found = sha
            self._shas[path] = found
        return self._shas[path]

    def __getitem__(self, path: str) -> str:
        if (sha := self.blob_id(path)) is None:
            raise KeyError(path)
        return decode_text(_git(self.repo, "cat-file", "blob", sha))

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.blob_id(path) is not None

    def __iter__(self) -> Iterator[str]:
        listing = _git(self.repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree", self.commit)
        return (path.decode("utf-8", "backslashreplace") for path in listing.split(b"\0") if path)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Beneath(Mapping[str, str]):
    """A source's files (`files`, relative to its `folder`) by their path from the repository's
    root: the repository as far as an in-memory tree holds it (compose_files)."""

    def __init__(self, files: Mapping[str, str], folder: str) -> None:
        self.files, self.prefix = files, folder + "/" if folder else ""

    def __getitem__(self, path: str) -> str:
        if not path.startswith(self.prefix):
            raise KeyError(path)
        return self.files[path[len(self.prefix):]]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and path.startswith(self.prefix) and path[len(self.prefix):] in self.files

    def __iter__(self) -> Iterator[str]:
        return (self.prefix + path for path in self.files)

    def __len__(self) -> int:
        return len(self.files)


class Recorder(Mapping[str, str]):
    """The files, noting every path a page's compose reads or looks for (its dependencies).
    Listing the files (iterating) would make the page depend on every path: `whole` says so, and
    such a page gets no key."""

    def __init__(self, files: Mapping[str, str], repository: Mapping[str, str]) -> None:
        self.files, self.repository, self.read, self.whole = files, repository, set[str](), False

    def __getitem__(self, path: str) -> str:
        self.read.add(path)  # REPOSITORY + a path: a file of the repository (a MyST `{include}`)
        return self.repository[path[len(REPOSITORY):]] if path.startswith(REPOSITORY) else self.files[path]

    def __contains__(self, path: object) -> bool:
        if isinstance(path, str):
            self.read.add(path)
            if path.startswith(REPOSITORY):
                return path[len(REPOSITORY):] in self.repository
        return path in self.files

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self.files)

    def __len__(self) -> int:
        self.whole = True
        return len(self.files)


def raw_file(repository: Mapping[str, str], folder: str, path: str) -> bytes | None:
    """The bytes of the file at `path` (relative to `folder`) of a repository read from git: a
    binary file (an intersphinx inventory), which the text of a file would garble. None when it is
    not there, leads out of the repository, or the files are not read from git (compose_files of
    a mapping)."""
    if not isinstance(repository, RepositoryFiles) or (found := in_repository(folder, path)) is None:
        return None
    sha = repository.blob_id(found)
    return _git(repository.repo, "cat-file", "blob", sha) if sha is not None else None
