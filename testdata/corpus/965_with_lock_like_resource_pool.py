"""A connection pool handing out connections through with-blocks, tracking leaks and reuse."""


class PoolExhausted(Exception):
    pass


class Pool:
    def __init__(self, size):
        self.free = [f"conn{i}" for i in range(size)]
        self.in_use = set()
        self.handed = 0

    def connection(self):
        return _Lease(self)


class _Lease:
    def __init__(self, pool):
        self.pool = pool

    def __enter__(self):
        if not self.pool.free:
            raise PoolExhausted(f"all {len(self.pool.in_use)} connections busy")
        self.conn = self.pool.free.pop(0)
        self.pool.in_use.add(self.conn)
        self.pool.handed += 1
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.pool.in_use.discard(self.conn)
        self.pool.free.append(self.conn)
        if exc_type is ConnectionError:
            print(f"  {self.conn} dropped: {exc}")
            return True
        return False


pool = Pool(2)
with pool.connection() as a, pool.connection() as b:
    print("using", a, b, sorted(pool.in_use))
    try:
        with pool.connection():
            pass
    except PoolExhausted as e:
        print("PoolExhausted:", e)
with pool.connection() as c:
    raise ConnectionError("reset by peer")
print(pool.free, pool.in_use, pool.handed)
