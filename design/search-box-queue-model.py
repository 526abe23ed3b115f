"""The queueing model of design/search-box-serving.md (the gate): 8 closed-loop clients on 2 cores,
processor sharing among at most `limit` requests in flight (the rest wait in line, FIFO).

Each request costs a prefix's Postgres time from search-box-prefix-costs-100k.json (the
per-prefix fastest wall ms at 100k, busy machine), scaled to a 4.3 ms mean, plus 0.8 ms of server
and client CPU (counted inside the limit, a simplification). Prints limit, p50, p95 (ms), req/s.

    python design/search-box-queue-model.py
"""

import json
import random
from pathlib import Path

COSTS = json.loads((Path(__file__).parent / "search-box-prefix-costs-100k.json").read_text())
MEAN_MS, OVERHEAD_MS = 4.3, 0.8
SIZES = [ms * MEAN_MS / (sum(COSTS.values()) / len(COSTS)) + OVERHEAD_MS for ms in COSTS.values()]


def simulate(limit: int, clients: int = 8, cores: int = 2, requests: int = 60_000, seed: int = 1):
    rng = random.Random(seed)
    now, latencies, started = 0.0, [], {}
    active: dict[int, float] = {}  # request -> CPU ms left
    waiting: list[tuple[int, float]] = []
    for n in range(clients):
        started[n] = now
        waiting.append((n, rng.choice(SIZES)))
    next_id = clients
    while len(latencies) < requests:
        while waiting and len(active) < limit:
            n, size = waiting.pop(0)
            active[n] = size
        rate = min(1.0, cores / len(active))  # each request's share of a core
        first = min(active, key=active.__getitem__)
        step = active[first] / rate
        now += step
        for n in active:
            active[n] -= step * rate
        for n in [n for n, left in active.items() if left <= 1e-9]:
            del active[n]
            latencies.append(now - started.pop(n))
            started[next_id] = now  # the client sends its next request at once
            waiting.append((next_id, rng.choice(SIZES)))
            next_id += 1
    latencies.sort()
    return round(latencies[len(latencies) // 2], 1), round(latencies[int(len(latencies) * 0.95)], 1), round(requests / now * 1000)


if __name__ == "__main__":
    for limit in (8, 4, 3, 2):
        print(limit, *simulate(limit))
