"""Slow clients: does /healthz answer while thousands of connections send their headers slowly?

`docschat serve` (one worker, keyword-only, a throwaway embedded Postgres) runs as its own process;
this process opens --connections sockets to it on loopback, each sending a request line and then
one header line every --drip seconds, as a slowloris client does. While they are held, /healthz is
asked --probes times (one at a time, a fresh connection each) and its latency recorded. The slow
connections are then left dripping until the server cuts them (REQUEST_READ_TIMEOUT_SECONDS), or
--hold seconds pass. Bounded: loopback only, at most 20,000 connections, at most 120 s of holding.

Prints the latency of /healthz (median, p95, max, failures), how many slow connections were opened
and cut by the server, and after how long (median, max).

    python scripts/bench_slow_clients.py [--connections 5000] [--drip 1] [--hold 30] [--probes 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from _corpus import start_server, stop_server, throwaway_database

ROOT = Path(__file__).resolve().parent.parent


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


async def slow_client(port: int, drip: float, hold: float, opened: asyncio.Event, cut: list[float],
                      counter: list[int], total: int) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        counter[1] += 1
        return
    started = time.monotonic()
    counter[0] += 1
    if counter[0] + counter[1] >= total:
        opened.set()
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")
        await writer.drain()
        while time.monotonic() - started < hold:
            try:
                data = await asyncio.wait_for(reader.read(4096), drip)
            except TimeoutError:
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
                continue
            if not data or b"\r\n\r\n" in data:  # closed, or answered (408): cut
                cut.append(time.monotonic() - started)
                return
    except OSError:
        cut.append(time.monotonic() - started)
    finally:
        writer.close()


async def probe(base: str, count: int, held: Callable[[], int]) -> tuple[list[float], int, list[int]]:
    latencies: list[float] = []
    failures = 0
    held_at: list[int] = []  # slow connections open at each probe
    for _ in range(count):
        held_at.append(held())
        started = time.perf_counter()
        try:
            async with httpx.AsyncClient(timeout=10) as client:  # a fresh connection each time
                response = await client.get(base + "/healthz")
            if response.status_code == 200:
                latencies.append((time.perf_counter() - started) * 1000)
            else:
                failures += 1
        except httpx.HTTPError:
            failures += 1
        await asyncio.sleep(0.05)  # spread the probes over the holding time
    return latencies, failures, held_at


async def run(base: str, port: int, args: argparse.Namespace) -> None:
    opened = asyncio.Event()
    cut: list[float] = []
    counter = [0, 0]  # opened, refused by the kernel or the server
    clients = []
    started = time.monotonic()
    for index in range(args.connections):
        clients.append(asyncio.create_task(
            slow_client(port, args.drip, args.hold, opened, cut, counter, args.connections)))
        if index % 200 == 199:
            await asyncio.sleep(0)  # let the opened ones start dripping
    await asyncio.wait_for(opened.wait(), 60)
    print(f"opened {counter[0]} slow connections in {time.monotonic() - started:.1f} s "
          f"({counter[1]} could not connect)", flush=True)
    latencies, failures, held_at = await probe(base, args.probes, lambda: counter[0] - len(cut))
    await asyncio.gather(*clients)
    print(f"/healthz while {min(held_at)}–{max(held_at)} slow connections were held: {len(latencies)} answered, {failures} failed; "
          f"latency median {statistics.median(latencies):.1f} ms, "
          f"p95 {sorted(latencies)[max(0, round(0.95 * len(latencies)) - 1)]:.1f} ms, max {max(latencies):.1f} ms")
    if cut:
        print(f"the server cut {len(cut)} of {counter[0]} slow connections after median "
              f"{statistics.median(cut):.1f} s (min {min(cut):.1f}, max {max(cut):.1f})")
    else:
        print(f"the server cut none of {counter[0]} slow connections in {args.hold:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=5000)
    parser.add_argument("--drip", type=float, default=1.0, help="seconds between header lines")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds a slow client keeps dripping at most")
    parser.add_argument("--probes", type=int, default=30)
    args = parser.parse_args()
    args.connections = max(1, min(args.connections, 20_000))
    args.hold = max(1.0, min(args.hold, 120.0))
    limit = raise_open_files(args.connections + 512)
    if limit < args.connections + 64:
        raise SystemExit(f"open-file limit {limit} is too low for {args.connections} connections (ulimit -Hn)")
    with throwaway_database("docschat-bench-slow-") as (url, home):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "MCP_"))}
        env.update(DATABASE_URL=url, DOCSCHAT_HOME=str(home), EMBEDDING_PROVIDER="none",
                   PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
        process, base = start_server(env, workers=1)
        try:
            print(f"server {base}: REQUEST_READ_TIMEOUT_SECONDS={env.get('REQUEST_READ_TIMEOUT_SECONDS', '10 (default)')}, "
                  f"MAX_CONNECTIONS={env.get('MAX_CONNECTIONS', '8192 (default)')}", flush=True)
            asyncio.run(run(base, int(base.rsplit(":", 1)[1]), args))
        finally:
            stop_server(process)


if __name__ == "__main__":
    main()
