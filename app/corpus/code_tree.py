"""A code source's files at its synced commit, read through local git for the model's tools.

Only the files the source indexes are visible (its include/exclude globs, never secret-looking
names); a directory is listed only when it holds such a file. Reads are size-capped.
"""

from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from app.corpus.code import MAX_FILE_BYTES, code_file_selected, source_lines
from app.corpus.git_source import GitSourceError, _git, decode_text, normalize_docs_dir

MAX_READ_CHARS = 16_000
MAX_LIST_ENTRIES = 200


class CodePathError(ValueError):
    """The path is outside what the source exposes."""


def clean_path(path: object) -> str:
    """A repository-relative path without `.`/`..` tricks; '' is the root."""
    if not isinstance(path, str):
        raise CodePathError("path must be a string")
    text = path.strip().replace("\\", "/")
    if "\x00" in text:
        raise CodePathError("path contains a NUL byte")
    normalized = posixpath.normpath("/" + text.lstrip("/")).lstrip("/")
    if normalized in (".", ""):
        return ""
    if normalized.startswith("..") or any(part == ".." for part in normalized.split("/")):
        raise CodePathError(f"{path!r} is outside the repository")
    return normalized


@dataclass(frozen=True)
class CodeTree:
    """One code source at one commit: `paths` are relative to the repository root."""

    repo: Path
    commit: str
    folder: str  # the source's dir inside the repository ('' for the root)
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    max_read_chars: int = MAX_READ_CHARS
    max_list_entries: int = MAX_LIST_ENTRIES
    _cache: dict[str, object] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def prefix(self) -> str:
        folder = normalize_docs_dir(self.folder)
        return folder + "/" if folder else ""

    def files(self) -> list[str]:
        """Every visible file (repository-relative), listed once per CodeTree."""
        if "files" not in self._cache:
            folder = normalize_docs_dir(self.folder)
            listing = _git(self.repo, "ls-tree", "-r", "-z", "-l", "--full-tree", self.commit,
                           *([folder] if folder else []))
            prefix = self.prefix
            files = []
            for record in listing.split(b"\0"):
                meta, _, path_bytes = record.partition(b"\t")
                if not path_bytes:
                    continue
                mode, kind, _sha, size = meta.decode().split()
                path = path_bytes.decode("utf-8", "backslashreplace")  # as git_source names them
                if (kind == "blob" and mode != "120000" and int(size) <= MAX_FILE_BYTES and path.startswith(prefix)
                        and code_file_selected(path[len(prefix):], self.include, self.exclude)):
                    files.append(path)  # as the sync indexes them: no symlinks, nothing too large
            self._cache["files"] = files
        return self._cache["files"]  # type: ignore[return-value]

    def read_file(self, path: object, start_line: object = 1) -> dict[str, object]:
        """The file's lines from `start_line`, numbered, up to max_read_chars."""
        wanted = clean_path(path)
        if wanted not in set(self.files()):
            raise CodePathError(f"{wanted or '/'} is not a file this source indexes")
        try:
            first = max(int(start_line), 1)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise CodePathError("start_line must be a whole number") from None
        text = _read_blob(self.repo, self.commit, wanted)
        lines = source_lines(text)
        out: list[str] = []
        size = 0
        last = first - 1
        for number in range(first, len(lines) + 1):
            line = f"{number}: {lines[number - 1]}"
            if size + len(line) + 1 > self.max_read_chars and out:
                break
            out.append(line)
            size += len(line) + 1
            last = number
        return {
            "path": wanted, "commit": self.commit, "start_line": first, "end_line": last, "total_lines": len(lines),
            "truncated": last < len(lines), "content": "\n".join(out),
        }

    def list_directory(self, path: object = "") -> dict[str, object]:
        """The folders and files right under `path` that hold something this source indexes."""
        wanted = clean_path(path)
        base = wanted + "/" if wanted else ""
        directories: set[str] = set()
        files: list[str] = []
        for file in self.files():
            if not file.startswith(base):
                continue
            rest = file[len(base):]
            head, slash, _ = rest.partition("/")
            if slash:
                directories.add(head + "/")
            else:
                files.append(head)
        if not directories and not files:
            raise CodePathError(f"{wanted or '/'} is not a folder this source indexes")
        entries = sorted(directories) + sorted(files)
        return {
            "path": wanted or "/", "commit": self.commit, "entries": entries[: self.max_list_entries],
            "truncated": len(entries) > self.max_list_entries,
        }


@functools.lru_cache(maxsize=64)
def _read_blob(repo: Path, commit: str, path: str) -> str:
    try:
        size = int(_git(repo, "cat-file", "-s", f"{commit}:{path}"))
        if size > MAX_FILE_BYTES:  # not indexed either: generated or minified
            raise CodePathError(f"{path} is larger than {MAX_FILE_BYTES} bytes; it is not read")
        data = _git(repo, "cat-file", "blob", f"{commit}:{path}")
    except GitSourceError as exc:
        raise CodePathError(f"{path} cannot be read at {commit[:12]}: {exc}") from None
    return decode_text(data)
