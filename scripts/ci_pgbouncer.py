"""A real PgBouncer in transaction mode in front of a Postgres, for the pooler test step of CI.

    python scripts/ci_pgbouncer.py start DIR PORT|auto   # reads TEST_DATABASE_URL, TEST_APP_DATABASE_URL
    python scripts/ci_pgbouncer.py stop DIR

`start` writes DIR/pgbouncer.ini and DIR/userlist.txt (the two roles of the URLs, scram-sha-256),
starts Debian's `pgbouncer` as a daemon (as user `pgserver` or `nobody` when run as root: PgBouncer
refuses root) with `pool_mode = transaction` and any database name passed through to the server,
and prints `export TEST_DATABASE_URL=… TEST_APP_DATABASE_URL=… DATABASE_POOLER=transaction`: the same
roles and passwords, through the pooler. `stop` ends the daemon by the pid in its pid file.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ci_postgres import free_port


def _through(url: str, port: int) -> str:
    parts = urlsplit(url)
    credentials = parts.netloc.rsplit("@", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{credentials}@127.0.0.1:{port}"))


def _quote(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _run_as() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("pgserver", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise SystemExit("running as root and no unprivileged user (pgserver, nobody) for pgbouncer")


def start(folder: Path, port: int, urls: list[str]) -> None:
    binary = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None)
    if binary is None:
        raise SystemExit("pgbouncer is not installed (apt-get install pgbouncer)")
    folder.mkdir(parents=True, exist_ok=True)
    server = urlsplit(urls[0])
    users = {unquote(urlsplit(u).username or ""): unquote(urlsplit(u).password or "") for u in urls}
    (folder / "userlist.txt").write_text("".join(f"{_quote(u)} {_quote(p)}\n" for u, p in users.items()))
    (folder / "pgbouncer.ini").write_text(f"""[databases]
* = host={server.hostname} port={server.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = {folder}/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
server_lifetime = 3600
ignore_startup_parameters = extra_float_digits
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
""")
    user = _run_as()
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in (folder, folder / "userlist.txt", folder / "pgbouncer.ini"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        os.chmod(folder / "userlist.txt", 0o600)
    command = [binary, "-d", *(["-u", user] if user else []), str(folder / "pgbouncer.ini")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while True:  # listening once the port accepts a connection
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        if time.monotonic() > deadline:
            log = (folder / "pgbouncer.log").read_text(errors="replace")[-2000:] if (folder / "pgbouncer.log").exists() else ""
            raise SystemExit(f"pgbouncer did not start on port {port}:\n{log}")
        time.sleep(0.05)
    owner, app = (_through(u, port) for u in urls)
    print(f"export TEST_DATABASE_URL={owner} TEST_APP_DATABASE_URL={app} DATABASE_POOLER=transaction")


def stop(folder: Path) -> None:
    pidfile = folder / "pgbouncer.pid"
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text().strip())
    try:
        os.kill(pid, signal.SIGINT)  # safe shutdown: waits for no client, closes the servers
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGTERM)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "start":
        urls = [os.environ.get("TEST_DATABASE_URL", ""), os.environ.get("TEST_APP_DATABASE_URL", "")]
        if not all(urls):
            sys.exit("set TEST_DATABASE_URL and TEST_APP_DATABASE_URL (scripts/ci_postgres.py start prints them)")
        start(Path(sys.argv[2]).resolve(), free_port(26432) if sys.argv[3] == "auto" else int(sys.argv[3]), urls)
    elif len(sys.argv) == 3 and sys.argv[1] == "stop":
        stop(Path(sys.argv[2]).resolve())
    else:
        sys.exit(__doc__)
