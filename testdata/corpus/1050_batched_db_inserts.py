"""Batched inserts: a generator makes batches, a context manager wraps each in a transaction."""
from contextlib import contextmanager
from itertools import islice


class FakeDB:
    def __init__(self):
        self.rows = []
        self.pending = None
        self.commits = 0

    def insert(self, row):
        if row["qty"] < 0:
            raise ValueError(f"negative qty for {row['sku']}")
        self.pending.append(row)


@contextmanager
def transaction(db):
    db.pending = []
    try:
        yield db
    except ValueError as e:
        print(f"  rollback {len(db.pending)} rows: {e}")
    else:
        db.rows.extend(db.pending)
        db.commits += 1
        print(f"  commit {len(db.pending)} rows")
    finally:
        db.pending = None


def batches(iterable, n):
    it = iter(iterable)
    while chunk := tuple(islice(it, n)):
        yield chunk


def rows():
    for i, qty in enumerate([5, 3, 8, -1, 2, 7, 4]):
        yield {"sku": f"SKU{i}", "qty": qty}


db = FakeDB()
for number, batch in enumerate(batches(rows(), 3), 1):
    print(f"batch {number}: {[r['sku'] for r in batch]}")
    with transaction(db):
        for row in batch:
            db.insert(row)
print(len(db.rows), db.commits, sum(r["qty"] for r in db.rows), db.pending)
