from collections import defaultdict, namedtuple
from operator import attrgetter

Order = namedtuple("Order", ["id", "customer", "amount", "status"])

orders = [
    Order(1, "acme", 120.0, "paid"),
    Order(2, "globex", 75.5, "pending"),
    Order(3, "acme", 30.0, "refunded"),
    Order(4, "initech", 210.25, "paid"),
    Order(5, "globex", 99.99, "paid"),
    Order(6, "acme", 45.0, "paid"),
]

by_customer = defaultdict(list)
by_status = defaultdict(int)
for o in orders:
    by_customer[o.customer].append(o)
    by_status[o.status] += 1

for customer in sorted(by_customer):
    group = by_customer[customer]
    paid = sum(o.amount for o in group if o.status == "paid")
    print(f"{customer:<8} orders={len(group)} paid={paid:8.2f} ids={[o.id for o in group]}")

print(dict(by_status))
biggest = max(orders, key=attrgetter("amount"))
print("biggest:", biggest)
print("as dict:", biggest._asdict())
fixed = orders[1]._replace(status="paid")
print(fixed, orders[1].status)
for o in sorted(orders, key=attrgetter("status", "amount")):
    print(o.status, o.amount)
print(Order._fields, len(orders[0]), orders[0][2])
