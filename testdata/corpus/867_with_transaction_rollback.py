"""A transaction context manager on a dict store: commit on success, roll back on error."""
import copy


class Store:
    def __init__(self):
        self.data = {}

    def transaction(self):
        return Transaction(self)


class Transaction:
    def __init__(self, store):
        self.store = store

    def __enter__(self):
        self.snapshot = copy.deepcopy(self.store.data)
        return self.store.data

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.store.data = self.snapshot
            print(f"rolled back after {exc_type.__name__}: {exc}")
            return exc_type is ValueError
        print("committed", sorted(self.store.data))
        return False


s = Store()
with s.transaction() as d:
    d["a"] = [1]
    d["b"] = 2
with s.transaction() as d:
    d["a"].append(99)
    d["c"] = 3
    raise ValueError("bad row")
print(s.data)
try:
    with s.transaction() as d:
        d.clear()
        raise KeyError("fatal")
except KeyError as e:
    print("propagated", e)
print(s.data)
