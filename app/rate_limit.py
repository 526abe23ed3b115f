"""Rate limits per hashed client IP, on the `limits` library with a storage over docs_chat_limits."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import math
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from limits import RateLimitItemPerDay, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter

from app.db.pool import acquire_stateless
from app.metrics import record_rate_limited


class PostgresLimitsStorage(Storage):
    """Fixed windows in public.docs_chat_limits (key, points, expire).

    `incr` is one upsert: concurrent hits on one key serialize on its row, so no two requests
    can both see the last free point.
    """

    STORAGE_SCHEME = ["docschat+postgres"]

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(uri=None, wrap_exceptions=False)
        self.pool = pool

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return (asyncpg.PostgresError, OSError)

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        async with self.pool.acquire() as conn:
            return await conn.fetchval("select points from public.docs_chat_limit_add($1, $2, $3)",
                                       key, float(expiry), amount)

    async def give_back(self, key: str) -> None:
        """One point back in the current window (none when it has ended: a new window starts full)."""
        async with self.pool.acquire() as conn:
            await conn.execute(
                "update public.docs_chat_limits set points = greatest(points - 1, 0) where key = $1 and expire > now()",
                key,
            )

    async def get(self, key: str) -> int:
        async with self.pool.acquire() as conn:
            value = await conn.fetchval(
                "select points from public.docs_chat_limits where key = $1 and expire > now()", key
            )
        return int(value or 0)

    async def get_expiry(self, key: str) -> float:
        async with self.pool.acquire() as conn:
            value = await conn.fetchval(
                "select extract(epoch from expire) from public.docs_chat_limits where key = $1", key
            )
        return float(value) if value is not None else time.time()

    async def check(self) -> bool:
        try:
            async with self.pool.acquire() as conn:
                return await conn.fetchval("select true")
        except Exception:  # noqa: BLE001 - a health check answers, it does not raise
            return False

    async def reset(self) -> int | None:
        async with self.pool.acquire() as conn:
            status = await conn.execute("delete from public.docs_chat_limits")
        return int(status.split()[-1])

    async def clear(self, key: str) -> None:
        async with self.pool.acquire() as conn:
            await conn.execute("delete from public.docs_chat_limits where key = $1", key)


@dataclass(frozen=True)
class RateLimitDecision:
    allowed: bool
    retry_after_seconds: int = 0
    limit: int = 0  # questions allowed per period
    period: str = ""  # "hour" or "day"


class ClientRateLimiter:
    """N hits an hour and M a day per client (hashed IP); `namespace` keeps limits apart
    (chat questions, failed admin logins)."""

    def __init__(self, pool: asyncpg.Pool, per_hour: int, per_day: int, namespace: str = "chat") -> None:
        self.storage = PostgresLimitsStorage(pool)
        self.strategy = FixedWindowRateLimiter(self.storage)
        self.items: list[tuple[str, RateLimitItemPerHour | RateLimitItemPerDay]] = [
            ("hour", RateLimitItemPerHour(per_hour)), ("day", RateLimitItemPerDay(per_day))]
        self.namespace = namespace

    async def _refusal(self, name: str, item: RateLimitItemPerHour | RateLimitItemPerDay, client_key: str) -> RateLimitDecision:
        reset_at = await self.storage.get_expiry(item.key_for(self.namespace, client_key))
        return RateLimitDecision(False, max(1, math.ceil(reset_at - time.time())), item.amount, name)

    async def hit(self, client_key: str) -> RateLimitDecision:
        """Spend one hit in every window, or none: a refused hit is given back, so the windows count
        what was allowed (a right admin token refused in a burst must not lock its admin out)."""
        for number, (name, item) in enumerate(self.items):
            if not await self.strategy.hit(item, self.namespace, client_key):
                if self.namespace == "chat":  # the metric counts refused questions
                    record_rate_limited(name)
                await self._give_back(client_key, self.items[: number + 1])
                return await self._refusal(name, item, client_key)
        return RateLimitDecision(True)

    async def refund(self, client_key: str) -> None:
        """Give back a hit that turned out not to count (a reserved attempt that succeeded)."""
        await self._give_back(client_key, self.items)

    async def _give_back(self, client_key: str, items: list[tuple[str, RateLimitItemPerHour | RateLimitItemPerDay]]) -> None:
        for _name, item in items:
            await self.storage.give_back(item.key_for(self.namespace, client_key))


class BlockRateLimiter:
    """`per_minute` hits a minute per client (a fixed window in docs_chat_limits under `namespace`),
    with one round trip per `block` hits instead of one per hit: a process takes `block` of a
    client's points at once (one upsert) and spends them locally until they are gone or the
    window ends.

    Bound, across any number of processes (workers, replicas) over one database: a block is only
    granted out of the points the window still has, so a client is **never admitted more than
    `per_minute` times** in a window; a client whose hits land on W processes may be refused up to
    (W - 1) x (block - 1) hits early (points the other processes took and have not spent yet).
    A refused client is refused locally, with no round trip, until its window ends (a window's
    points only grow). The default block is per_minute // 30, from 1 (exact, a round trip per
    hit) to 20: 10 for the default 300 a minute, i.e. 2 workers refuse at most 9 hits (3%) early.

    A block's upsert does not wait for its commit to reach the disk (synchronous_commit off for
    that one transaction): a crash may forget a window's last blocks; nothing else.
    """

    MAX_BLOCK = 20
    _PRUNE_AT = 10_000  # keys remembered before the ended windows are forgotten

    def __init__(self, pool: asyncpg.Pool, per_minute: int, namespace: str, block: int | None = None) -> None:
        self.pool = pool
        self.limit = per_minute
        self.block = max(1, min(block if block is not None else per_minute // 30, self.MAX_BLOCK, per_minute))
        self.namespace = namespace
        self._item = RateLimitItemPerMinute(per_minute)
        self._blocks: dict[str, _Block] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def key(self, client_key: str) -> str:
        """The row's key in docs_chat_limits (the `limits` library's format, as the other limits)."""
        return self._item.key_for(self.namespace, client_key)

    async def hit(self, client_key: str) -> RateLimitDecision:
        key = self.key(client_key)
        while True:
            block = self._blocks.get(key)
            now = time.time()
            if block is not None and block.expire > now:
                if block.left > 0:  # no await between this check and the spend: one coroutine at a time
                    block.left -= 1
                    return RateLimitDecision(True)
                if block.refused:
                    return RateLimitDecision(False, max(1, math.ceil(block.expire - now)), self.limit, "minute")
            lock = self._locks.setdefault(key, asyncio.Lock())
            async with lock:  # one reservation in flight per key and process; the others wait for it
                block = self._blocks.get(key)
                if block is None or block.expire <= time.time() or (block.left == 0 and not block.refused):
                    self._blocks[key] = await self._reserve(key)

    async def _reserve(self, key: str) -> _Block:
        if len(self._blocks) >= self._PRUNE_AT:
            now = time.time()
            for old in [k for k, b in self._blocks.items() if b.expire <= now]:
                del self._blocks[old]
                if not (lock := self._locks.get(old)) or not lock.locked():
                    self._locks.pop(old, None)
        async with acquire_stateless(self.pool) as conn:  # set_config(..., true): for this transaction only
            row = await conn.fetchrow("select points, expire from public.docs_chat_limit_add($1, $2, $3, true)",
                                      key, float(self._item.get_expiry()), self.block)
        # The points this block may spend: what the window had left before it, at most a block.
        granted = max(0, min(self.block, self.limit - (row["points"] - self.block)))
        return _Block(granted, row["expire"], refused=granted == 0)


@dataclass
class _Block:
    left: int  # points this process may still spend in the window
    expire: float  # when the window ends (epoch seconds, the database's clock)
    refused: bool  # the window had no point left: refuse until it ends


IP_SECRET_NAME = "ip_hash"


async def load_ip_secret(pool: asyncpg.Pool, configured: str | None, home: Path) -> bytes:
    """The HMAC key for IPs: IP_HASH_SECRET when set, else the one stored in the database.

    The database's key is created once, by whichever process asks first, and read by every other:
    replicas with different DOCSCHAT_HOME folders hash one client to one rate-limit key. A key
    kept in DOCSCHAT_HOME/ip_secret by an older version is adopted when none is stored yet, so
    existing windows carry on.
    """
    if configured:
        return configured.encode()
    legacy = home / "ip_secret"
    candidate = legacy.read_text().strip() if legacy.is_file() else ""
    if len(candidate) < 32:
        candidate = secrets.token_hex(32)
    async with pool.acquire() as conn:
        stored = await conn.fetchval("select public.docs_app_secret_get_or_create($1, $2)", IP_SECRET_NAME, candidate)
    return stored.encode()


def hash_ip(ip: str, secret: bytes) -> str:
    return hmac.new(secret, ip.encode(), hashlib.sha256).hexdigest()


def _address(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address however it is written: a port (`1.2.3.4:5678`, `[::1]:80`, which some balancers
    add) and a zone (`fe80::1%eth0`) dropped, an IPv4-mapped IPv6 address (a server bound to `::`)
    as its IPv4 address."""
    text = (text or "").strip()
    if text.startswith("[") and "]" in text:
        text = text[1:text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class _Proxies:
    """The trusted proxies, addresses or networks (10.0.0.0/8), parsed once."""

    def __init__(self, proxies: list[str]) -> None:
        # Settings refuse an entry that does not parse (app/config.py); one skipped here would
        # only ever trust less.
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in proxies:
            try:
                self.networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                continue

    def __contains__(self, text: str | None) -> bool:
        address = _address(text)
        return address is not None and any(address in network for network in self.networks)


def is_trusted_proxy(address: str | None, trusted_proxies: list[str]) -> bool:
    """Whether `address` is one of the trusted proxies, however either is written (::1, 0:0::1)."""
    return address in _Proxies(trusted_proxies)


def client_ip(peer: str | None, forwarded_for: str | None, trusted_proxies: list[str]) -> str:
    """The client's address: X-Forwarded-For is believed only when the peer is a trusted proxy,
    and then its rightmost address that is not itself a trusted proxy."""
    peer = peer or "unknown"
    trusted = _Proxies(trusted_proxies)  # parsed once, not once per hop
    if not forwarded_for or peer not in trusted:
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return _canonical(hop)
    return _canonical(hops[0]) if hops else peer


def _canonical(hop: str) -> str:
    """One client, one key: its address without the port a balancer may add; as written otherwise."""
    address = _address(hop)
    return str(address) if address is not None else hop


def client_key(peer: str | None, forwarded_for: str | None, trusted_proxies: list[str], secret: bytes) -> str:
    """The key a client is counted under: its address (client_ip), hashed."""
    return hash_ip(client_ip(peer, forwarded_for, trusted_proxies), secret)
