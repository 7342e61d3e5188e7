# Records with __lt__ sorted (issue 30, item 7): a class with __init__,
# __lt__, __eq__ and __repr__, its instances sorted by their own order,
# searched with bisect and ranked with heapq. CPython and onetool run this
# file unchanged and print the same text; N sets the size (the benchmark
# rewrites that line).
import bisect
import heapq

N = 50_000


class Order:
    def __init__(self, oid, customer, total, day):
        self.oid = oid
        self.customer = customer
        self.total = total
        self.day = day

    def __lt__(self, other):
        if self.day != other.day:
            return self.day < other.day
        if self.total != other.total:
            return self.total > other.total
        return self.oid < other.oid

    def __eq__(self, other):
        return self.oid == other.oid

    def __hash__(self):
        return hash(self.oid)

    def __repr__(self):
        return f"Order({self.oid}, {self.customer!r}, {self.total}, day={self.day})"

    def late(self):
        return self.day > 300


NAMES = ["ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo"]

orders = [Order(i, NAMES[(i * 7) % len(NAMES)], (i * 7919) % 10007, (i * 31) % 365)
          for i in range(N)]
ranked = sorted(orders)
print("first", ranked[0])
print("last", ranked[-1])

orders.sort(reverse=True)
print("reverse first", orders[0])

days = [o.day for o in ranked]
probe = Order(-1, "x", 10**9, 200)
at = bisect.bisect_left(ranked, probe)
print("from day 200 at", at, ranked[at])

top = heapq.nsmallest(5, orders)
print("top", [o.oid for o in top])
print("min", min(orders).oid, "max", max(orders).oid)

late = [o for o in ranked if o.late()]
print("late", len(late), "distinct", len(set(orders)))
print("found", orders.count(Order(42, "", 0, 0)))
