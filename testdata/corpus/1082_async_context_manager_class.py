"""A connection pool used through a class with __aenter__ and __aexit__."""
import asyncio


class Connection:
    def __init__(self, pool, cid):
        self.pool, self.cid = pool, cid

    async def execute(self, sql):
        await asyncio.sleep(0.001)
        if "DROP" in sql:
            raise PermissionError(f"conn{self.cid}: {sql!r} not allowed")
        return f"conn{self.cid}: {sql}"


class Pool:
    def __init__(self, size):
        self.free = list(range(size))
        self.in_use = []
        self.log = []

    async def __aenter__(self):
        await asyncio.sleep(0)
        cid = self.free.pop(0)
        self.in_use.append(cid)
        self.log.append(f"acquire {cid}")
        return Connection(self, cid)

    async def __aexit__(self, exc_type, exc, tb):
        cid = self.in_use.pop()
        self.free.append(cid)
        self.log.append(f"release {cid}" + (f" after {exc_type.__name__}" if exc_type else ""))
        return exc_type is PermissionError


async def main():
    pool = Pool(2)
    async with pool as conn:
        print(await conn.execute("SELECT 1"))
    async with pool as conn:
        print(await conn.execute("DROP TABLE users"))
        print("not reached")
    print("PermissionError was suppressed by __aexit__")
    try:
        async with pool as conn:
            raise ValueError("bad parameter")
    except ValueError as e:
        print("ValueError propagated:", e)
    print(pool.log)
    print("free connections:", sorted(pool.free))


asyncio.run(main())
