"""The settings docschat gives its embedded cluster: a marked block at the end of postgresql.conf.

Postgres's own default shared_buffers (128 MB) holds a corpus of a few thousand sections; at 100k
sections each search read some 2,000 pages through the OS, and the two legs, running at once,
waited on each other's reads (bench_search: fused p95 20 ms at 128 MB, 12 ms at 1 GB).

The block is written before the server starts and never restarts one (shared_buffers is read at
start only): a server that is running keeps its settings until it next starts, so no client of it
is cut off. The block comes last, after initdb's own lines; an operator's `alter system set`
(postgresql.auto.conf, read after this file) still wins.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

# An eighth of the memory, at most 1 GB: the embedded server shares its machine with the app.
SHARED_BUFFERS_MAX_MB = 1024
BEGIN, END = "# docschat: begin", "# docschat: end"
_REFUSED = "# the server did not start with these, so Postgres's defaults stay:"


def embedded_settings() -> dict[str, str]:
    """What docschat sets in the embedded cluster's postgresql.conf."""
    return {"shared_buffers": f"{max(128, min(SHARED_BUFFERS_MAX_MB, _memory_mb() // 8))}MB"}


def _memory_mb() -> int:
    """This machine's memory, or the container's limit when lower (cgroup v2)."""
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit.isdigit():
            total = min(total, int(limit))
    except OSError:
        pass
    return total // (1 << 20)


# What Postgres says when it cannot allocate the shared memory it was asked for (too large a
# shared_buffers for the machine, or for /dev/shm).
_MEMORY_REFUSALS = (
    "could not map anonymous shared memory", "could not create shared memory segment",
    "could not resize shared memory segment", "out of memory", "cannot allocate memory",
)


def refused_for_settings(logged: str, settings: dict[str, str]) -> bool:
    """Whether what the server logged as it failed to start says `settings` were why: it names one
    of them, or it could not allocate its memory. Any other reason (a backend of a killed server
    still holding its memory, a lock, a full disk) may pass, so the settings are not given up for it."""
    said = logged.lower()
    return any(f'"{name}"' in said for name in settings) or any(m in said for m in _MEMORY_REFUSALS)


def settings_block(settings: dict[str, str], refused: bool = False) -> list[str]:
    lines = [f"{name} = '{value}'" for name, value in settings.items()]
    if refused:
        lines = [_REFUSED, *(f"# {line}" for line in lines)]
    return [BEGIN, *lines, END]


def _split(text: str) -> tuple[list[str], list[list[str]]]:
    """The file's own lines, and docschat's blocks (each from a BEGIN line to the next END line).
    A BEGIN with no END after it, or a stray END, is dropped and the lines after it kept: they
    are not ours."""
    lines = text.splitlines()
    own: list[str] = []
    blocks: list[list[str]] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == BEGIN:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() in (BEGIN, END)), None)
            if end is not None and lines[end].strip() == END:
                blocks.append([line.strip() for line in lines[i : end + 1]])
                i = end + 1
                continue
        elif lines[i].strip() != END:
            own.append(lines[i])
        i += 1
    return own, blocks


def update_settings(conf: Path, settings: dict[str, str]) -> bool:
    """Make docschat's block the one for `settings`, at the end of `conf`; whether the file
    changed. Settings refused before are not written again."""
    own, blocks = _split(_read(conf))
    refused = settings_block(settings, refused=True)
    return _rewrite(conf, own, refused if blocks and blocks[-1] == refused else settings_block(settings))


def mark_refused(conf: Path) -> bool:
    """Comment out docschat's block after the server failed to start with it; whether there was
    an active one (False: the failure was not ours)."""
    own, blocks = _split(_read(conf))
    if not blocks or blocks[-1][1:2] == [_REFUSED]:
        return False
    settings = {}
    for line in blocks[-1][1:-1]:
        if match := re.fullmatch(r"(\w+) = '(.*)'", line):
            settings[match[1]] = match[2]
    return _rewrite(conf, own, settings_block(settings, refused=True))


def _rewrite(conf: Path, own: list[str], block: list[str]) -> bool:
    while own and not own[-1].strip():
        own = own[:-1]
    text = "\n".join([*own, "", *block]) + "\n"
    if text == _read(conf):
        return False
    write_atomically(conf, text.encode("latin-1"))
    return True


def _read(conf: Path) -> str:
    # Latin-1 maps every byte to one character and back: a comment in any encoding survives.
    return conf.read_bytes().decode("latin-1")


def write_atomically(path: Path, data: bytes) -> None:
    """A full disk or a crash leaves the old file whole, never half a config Postgres cannot read.
    A symlinked file is written where it points, and stays a link."""
    path = path.resolve()
    stat = path.stat()
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, stat.st_mode & 0o7777)
        if hasattr(os, "chown"):
            os.chown(temp, stat.st_uid, stat.st_gid)  # the server's own user reads it (pgserver runs root as another)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
