"""Reading the docs files of one git revision through git itself (the working tree is ignored)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath

from app.errors import DocschatError

# Byte order marks of the encodings besides UTF-8 that editors write a text file in: Windows
# PowerShell 5's `>` and older Notepad write UTF-16. Longest first: UTF-32 LE starts as UTF-16 LE.
_BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
)


class GitSourceError(DocschatError):
    """The repository, revision or folder cannot be read."""


def _git(repo: Path, *args: str, input_bytes: bytes | None = None) -> bytes:
    try:
        result = subprocess.run(
            ["git", "-C", str(repo), *args], input=input_bytes, capture_output=True, check=False
        )
    except FileNotFoundError:
        raise GitSourceError("git is not installed; compose reads the docs through git") from None
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitSourceError(f"git {args[0]} failed in {repo}: {message[-1] if message else 'unknown error'}")
    return result.stdout


def normalize_docs_dir(docs_dir: str) -> str:
    cleaned = str(PurePosixPath(docs_dir.strip().strip("/") or "."))
    return "" if cleaned == "." else cleaned


def resolve_commit(repo: Path, branch: str) -> str:
    """The commit a branch (or any revision) points at, so a sync reads and records one snapshot."""
    if not repo.exists():
        raise GitSourceError(f"the repository {repo} does not exist")
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}").decode().strip()
    except GitSourceError:
        if not (repo / ".git").exists() and not repo.joinpath("HEAD").exists():
            _git(repo, "rev-parse", "--git-dir")  # raises with git's own words
        raise GitSourceError(f"branch or revision {branch!r} not found in the repository {repo}") from None


def _tree_entries(repo: Path, branch: str, docs_dir: str) -> list[tuple[str, str]]:
    """(path relative to `docs_dir`, blob sha) of every file under `docs_dir` at `branch`."""
    if not (repo / ".git").exists() and not repo.joinpath("HEAD").exists():
        _git(repo, "rev-parse", "--git-dir")  # raises with git's own words
    try:
        _git(repo, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}")
    except GitSourceError:
        raise GitSourceError(f"branch or revision {branch!r} not found in the repository {repo}") from None
    folder = normalize_docs_dir(docs_dir)
    listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", branch, *([folder] if folder else []))
    entries: list[tuple[str, str]] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, path_bytes = record.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        # A name that is not UTF-8 keeps its bytes visible (\xff): two such names stay two pages.
        path = path_bytes.decode("utf-8", "backslashreplace")
        if folder and path == folder:
            # The folder is a file or a symbolic link: reading "nothing" would delete every page.
            what = "a symbolic link" if mode == "120000" else "a file"
            raise GitSourceError(f"{folder!r} is {what} at {branch!r} in {repo}, not a folder of docs")
        if kind != "blob" or mode == "120000":  # symlinks are not followed
            continue
        relative = path[len(folder) + 1 :] if folder else path
        entries.append((relative, sha))
    if not entries:
        raise GitSourceError(f"no files under {folder or 'the repository root'!r} at {branch!r} in {repo}")
    return entries


def _missing(relative: str, branch: str, repo: Path, header: list[bytes]) -> GitSourceError:
    return GitSourceError(f"git cannot read {relative!r} at {branch!r} in {repo} "
                          f"({b' '.join(header[1:]).decode(errors='replace')}): fetch the repository again")


def paths_named(repo: Path, commit: str, names: tuple[str, ...]) -> list[str]:
    """Every file path at `commit` whose name is one of `names` (a site's configuration, anywhere)."""
    listing = _git(repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
    found = (path.decode("utf-8", "backslashreplace") for path in listing.split(b"\0") if path)
    return [path for path in found if path.rpartition("/")[2] in names]


def read_paths(repo: Path, commit: str, paths: list[str]) -> dict[str, str]:
    """The files among `paths` (from the repository root) that exist at `commit`: {path: text}."""
    listing = _git(repo, "ls-tree", "-z", "--full-tree", commit, "--", *paths) if paths else b""
    found: dict[str, str] = {}
    for record in filter(None, listing.split(b"\0")):
        meta, _, path = record.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        if kind == "blob" and mode != "120000":
            found[path.decode("utf-8", "backslashreplace")] = decode_text(_git(repo, "cat-file", "blob", sha))
    return found


def read_docs_tree(repo: Path, branch: str, docs_dir: str) -> dict[str, str]:
    """All files under `docs_dir` at `branch`, keyed by their path relative to `docs_dir`.

    Uses `git ls-tree` for the listing and one `git cat-file --batch` for every blob, so a tree of
    hundreds of files costs two processes.
    """
    entries = _tree_entries(repo, branch, docs_dir)
    batch_input = "".join(f"{sha}\n" for _, sha in entries).encode()
    output = _git(repo, "cat-file", "--batch", input_bytes=batch_input)
    files: dict[str, str] = {}
    offset = 0
    for relative, _sha in entries:
        header_end = output.index(b"\n", offset)
        header = output[offset:header_end].split()
        if len(header) != 3 or not header[2].isdigit():  # "<sha> missing": a damaged or partial clone
            raise _missing(relative, branch, repo, header)
        size = int(header[2])
        body = output[header_end + 1 : header_end + 1 + size]
        offset = header_end + 1 + size + 1  # the blob is followed by a newline
        files[relative] = decode_text(body)
    return files


class GitTree(Mapping[str, str]):
    """The files under a folder at a revision, read one at a time when asked for: the listing is
    kept (paths and blob ids), a file's text only while it is used. One `git cat-file --batch`
    process answers every read; `close()` (or `with`) ends it. A sync of a large tree holds one
    page's text at a time instead of the whole tree (design/scale-sync.md)."""

    def __init__(self, repo: Path, branch: str, docs_dir: str) -> None:
        self.repo, self.branch = repo, branch
        self._shas = dict(_tree_entries(repo, branch, docs_dir))
        self._process: subprocess.Popen[bytes] | None = None

    def __getitem__(self, path: str) -> str:
        sha = self._shas[path]
        if self._process is None:
            self._process = subprocess.Popen(["git", "-C", str(self.repo), "cat-file", "--batch"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"{sha}\n".encode())
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3 or not header[2].isdigit():
            self.close()
            raise _missing(path, self.branch, self.repo, header)
        body = stdout.read(int(header[2]) + 1)[:-1]  # the blob is followed by a newline
        return decode_text(body)

    def blob_id(self, path: str) -> str | None:
        """The path's blob id in the listing (None when absent): what a page key is made of."""
        return self._shas.get(path)

    def __iter__(self) -> Iterator[str]:
        return iter(self._shas)

    def __len__(self) -> int:
        return len(self._shas)

    def __contains__(self, path: object) -> bool:
        return path in self._shas

    def close(self) -> None:
        if self._process is not None:
            process, self._process = self._process, None
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
            process.wait()

    def __enter__(self) -> GitTree:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def decode_text(data: bytes) -> str:
    """A file's text: UTF-16 or UTF-32 when it starts with that encoding's byte order mark, or has
    none but its NUL bytes say so (_unmarked_encoding), else UTF-8 (a UTF-8 mark dropped); bytes
    that do not decode become U+FFFD. Read as UTF-8, a UTF-16 page was every other character a NUL:
    its front matter unread, so a page declaring `audience: internal` took its source's default."""
    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return data[len(mark):].decode(encoding, "replace")
    if (unmarked := _unmarked_encoding(data)) is not None:
        return data.decode(unmarked, "replace")
    # NUL is never text (Postgres cannot store it): dropped here, before the front matter is read,
    # so that the ASCII of a UTF-16 page too short or too odd to tell still declares its audience.
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace").replace("\x00", "")


# Fewer zero bytes than this tell nothing (a short page, a stray NUL): read as UTF-8, NULs dropped.
_MIN_ZEROS = 8


def _unmarked_encoding(data: bytes) -> str | None:
    """UTF-16 or UTF-32 written without a byte order mark, told by where its NUL bytes fall: a
    text file in UTF-8 has none, while in UTF-16 every Latin character has its zero byte on the
    same side (odd offsets little-endian, even ones big-endian), and in UTF-32 a character's top
    byte is always zero. Judged on the first 4 KiB; None when the pattern is not clear (a page of
    CJK text alone has too few Latin characters to tell, and is read as UTF-8)."""
    sample = data[:4096]
    if b"\x00" not in sample:
        return None
    units = len(sample) // 4 * 4
    if units >= 4 * _MIN_ZEROS:
        zeros = [sample[offset:units:4].count(0) for offset in range(4)]
        quarter = units // 4
        # The top byte of a code point is always zero, the next one for all but emoji and rarer.
        if zeros[3] == quarter and zeros[2] * 4 >= quarter * 3 and zeros[0] < quarter:
            return "utf-32-le"
        if zeros[0] == quarter and zeros[1] * 4 >= quarter * 3 and zeros[3] < quarter:
            return "utf-32-be"
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    # A sixteenth of a docs page's characters at least are Latin (markup, code, spaces, newlines),
    # whose high byte is zero; a stray NUL or two in a UTF-8 page is not that many. A trailing odd
    # byte decodes to U+FFFD.
    enough = max(len(sample) // 32, _MIN_ZEROS)
    if odd >= enough and even * 8 < odd:
        return "utf-16-le"
    if even >= enough and odd * 8 < even:
        return "utf-16-be"
    return None
