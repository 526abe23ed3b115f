"""How long `docschat ask` takes beside a running server, against a Python calibration loop timed in
the same run (the machine's speed and load at that moment).

Target (issue 47): ask beside a server <= 3 x the calibration loop (it loaded the model on every
call: about 15 x). Each round times the loop, then `docschat ask` as a fresh process (what a person
or an MCP client starts); the ratio is per round, so a busy moment slows both. With --local, each
round also times `docschat ask --all-audiences`, which searches the database itself and loads the
model (the path without a server).

    python scripts/bench_cli.py                      # starts its own server (temporary home, docs/ synced)
    python scripts/bench_cli.py --url http://127.0.0.1:8000 --home .docschat   # beside a running one
    python scripts/bench_cli.py --rounds 7 --local

Its own server: the embedded Postgres in a temporary DOCSCHAT_HOME, this repository's docs/ synced
with EMBEDDING_PROVIDER from the environment (default: local when installed, as the demo), then
`docschat serve`; all stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUESTION = "How do I embed the chat widget on my site?"
# About one second of pure Python on one idle core of a 2020s machine (3.11).
CALIBRATION_ITERATIONS = 12_000_000


def calibration() -> float:
    started = time.perf_counter()
    total = 0
    for i in range(CALIBRATION_ITERATIONS):
        total += i * i
    assert total > 0
    return time.perf_counter() - started


def docschat(*args: str, env: dict[str, str], check: bool = True) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, env=env,
                            cwd=REPO, timeout=600)
    took = time.perf_counter() - started
    if check and result.returncode != 0:
        raise SystemExit(f"docschat {' '.join(args)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return took, result


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    print(f"syncing docs/ into {env['DOCSCHAT_HOME']} (EMBEDDING_PROVIDER={env.get('EMBEDDING_PROVIDER', 'auto')}) …",
          flush=True)
    docschat("sync", env=env | {"DOCS_REPO": str(REPO), "BRANCH": "HEAD", "DOCS_DIR": "docs"})
    # The production quota (5 questions an hour) would refuse the sixth ask: the CLI then searches
    # the database itself, and the round times the model's load instead.
    limits = {"RATE_LIMIT_PER_HOUR": "100000", "RATE_LIMIT_PER_DAY": "100000"}
    server = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)], cwd=REPO, env=env | limits,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    record = Path(env["DOCSCHAT_HOME"]) / "server.json"
    deadline = time.monotonic() + 300
    while not record.exists():  # written once /healthz answers (the model loaded)
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not become ready")
        time.sleep(0.2)
    return server, f"http://127.0.0.1:{port}"


def spread(values: list[float], unit: str = "s") -> str:
    return (f"median {statistics.median(values):.2f}{unit} (min {min(values):.2f}, max {max(values):.2f}, "
            f"n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--url", help="a running server's URL (PUBLIC_URL for the CLI)")
    parser.add_argument("--home", type=Path, help="its DOCSCHAT_HOME (with --url)")
    parser.add_argument("--local", action="store_true", help="also time ask without the server (loads the model)")
    args = parser.parse_args()

    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "PUBLIC_URL"}}
    env |= {"PYTHONPATH": str(REPO), "LOG_LEVEL": "warning"}
    server = None
    home = None
    if args.url:
        env |= {"PUBLIC_URL": args.url} | ({"DOCSCHAT_HOME": str(args.home)} if args.home else {})
        url = args.url
    else:
        home = Path(tempfile.mkdtemp(prefix="bench-cli-"))
        env |= {"DOCSCHAT_HOME": str(home)}
        if "EMBEDDING_PROVIDER" not in env:
            from app.embeddings.local import local_model_installed

            env["EMBEDDING_PROVIDER"] = "local" if local_model_installed() else "none"
        server, url = start_server(env)
    try:
        docschat("ask", QUESTION, env=env)  # one warm-up call: the OS's file cache, the server's first question
        rows: dict[str, list[float]] = {"calibration": [], "ask": [], "ratio": [], "local": [], "local_ratio": []}
        for number in range(1, args.rounds + 1):
            loop = calibration()
            took, result = docschat("ask", QUESTION, env=env)
            if "did not answer" in result.stderr or "Relevant Guides" not in result.stdout:
                raise SystemExit(f"ask did not use the server at {url}:\n{result.stderr[-1000:]}")
            rows["calibration"].append(loop)
            rows["ask"].append(took)
            rows["ratio"].append(took / loop)
            line = f"round {number}: calibration {loop:.2f}s  ask beside the server {took:.2f}s ({took / loop:.1f} x)"
            if args.local:
                local, _ = docschat("ask", QUESTION, "--all-audiences", env=env)
                rows["local"].append(local)
                rows["local_ratio"].append(local / loop)
                line += f"  ask without it {local:.2f}s ({local / loop:.1f} x)"
            print(line, flush=True)
        print(f"\nserver {url}; question {QUESTION!r}")
        print(f"calibration loop ({CALIBRATION_ITERATIONS:,} iterations): {spread(rows['calibration'])}")
        print(f"docschat ask beside the server:   {spread(rows['ask'])}")
        print(f"ratio ask / calibration:          {spread(rows['ratio'], ' x')}   target <= 3 x")
        if args.local:
            print(f"docschat ask without the server:  {spread(rows['local'])}")
            print(f"ratio without / calibration:      {spread(rows['local_ratio'], ' x')}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=60)
        if home is not None:
            docschat("db", "stop", env=env, check=False)
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
