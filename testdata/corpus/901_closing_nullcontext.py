"""contextlib.closing on an object with close(), and nullcontext as an optional manager."""
from contextlib import closing, nullcontext


class Connection:
    opened = 0

    def __init__(self, dsn):
        self.dsn = dsn
        self.closed = False
        Connection.opened += 1

    def query(self, sql):
        if self.closed:
            raise RuntimeError("connection closed")
        return f"{self.dsn}: {sql}"

    def close(self):
        self.closed = True
        print("closed", self.dsn)


with closing(Connection("db1")) as conn:
    print(conn.query("select 1"))
print(conn.closed)
try:
    conn.query("select 2")
except RuntimeError as e:
    print("RuntimeError:", e)


def run(sql, conn=None):
    manager = nullcontext(conn) if conn else closing(Connection("tmp"))
    with manager as c:
        return c.query(sql)


shared = Connection("shared")
print(run("a", shared), shared.closed)
print(run("b"))
with nullcontext() as nothing:
    print(nothing, Connection.opened)
