"""Where docschat keeps its state when DOCSCHAT_HOME is not set: found as git finds `.git`.

From the current folder upwards, the first folder holding a `.docschat` folder or a `docschat.toml`
is the project: its `.docschat` is the home, its `docschat.toml` (when there is one) the sources.
Outside any project, the per-user data folder (XDG_DATA_HOME/docschat, ~/.local/share/docschat on
Linux). So the CLI, the server and an MCP client started from any folder of a project, or from
anywhere outside one, use the same database; none makes a new one in whatever folder it runs in.

Light on purpose (pathlib and platformdirs): the settings read it on every command.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

HOME_FOLDER = ".docschat"
CONFIG_FILE = "docschat.toml"


@dataclass(frozen=True)
class FoundHome:
    home: Path
    config: Path | None  # the project's docschat.toml, when it has one
    reason: str  # why this home, for `docschat status`
    project: Path | None = None  # the folder found, None outside any project


def _exists(path: Path, folder: bool) -> bool:
    try:
        return path.is_dir() if folder else path.is_file()
    except OSError:  # a folder this user may not list: as if absent, the walk goes on
        return False


def _start() -> Path:
    try:
        return Path.cwd()
    except OSError:  # the current folder was deleted
        return Path(os.environ.get("PWD") or "/")


def user_home() -> Path:
    """The per-user data folder (platformdirs: XDG_DATA_HOME on Linux, Application Support on macOS)."""
    return Path(platformdirs.user_data_dir("docschat", appauthor=False))


def find_home(start: Path | None = None) -> FoundHome:
    """The nearest project above `start` (default: the current folder), else the per-user folder."""
    here = (start or _start()).absolute()
    for folder in (here, *here.parents):
        has_home = _exists(folder / HOME_FOLDER, folder=True)
        has_config = _exists(folder / CONFIG_FILE, folder=False)
        if has_home or has_config:
            marker = folder / (HOME_FOLDER if has_home else CONFIG_FILE)
            where = "" if folder == here else f" (looked up from {here})"
            return FoundHome(folder / HOME_FOLDER, folder / CONFIG_FILE if has_config else None,
                             f"found {marker}{where}", folder)
    return FoundHome(user_home(), None,
                     f"the per-user data folder: no {HOME_FOLDER} or {CONFIG_FILE} in {here} or above it")


# --- the running server, recorded in the home ------------------------------------------------------
# `docschat serve` and the demo write home/server.json once /healthz is ready and remove it at exit:
# the CLI of the same home then asks that server rather than loading the model again, and its links
# use the server's URL. A file whose process is gone is ignored.

SERVER_FILE = "server.json"


def record_server(home: Path, url: str) -> Path:
    """Write home/server.json for this process (atomically: a reader never sees half of it)."""
    import json

    path = home / SERVER_FILE
    home.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{SERVER_FILE}.{os.getpid()}")
    partial.write_text(json.dumps({"url": url.rstrip("/"), "pid": os.getpid()}) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path


def forget_server(home: Path) -> None:
    """Remove home/server.json if this process wrote it (another server may have taken its place)."""
    if (recorded_server(home, alive_only=False) or {}).get("pid") == os.getpid():
        try:
            (home / SERVER_FILE).unlink()
        except OSError:
            pass


def recorded_server(home: Path, *, alive_only: bool = True) -> dict[str, object] | None:
    """home/server.json as {"url", "pid"}; None when absent, unreadable, or its process has exited."""
    import json

    try:
        data = json.loads((home / SERVER_FILE).read_text(encoding="utf-8"))
        url, pid = str(data["url"]), int(data["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if alive_only:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:  # another user's process: alive
            pass
    return {"url": url, "pid": pid}
