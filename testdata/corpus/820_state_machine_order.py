"""An order workflow as a state machine with an Enum and allowed transitions."""
from enum import Enum


class Status(Enum):
    NEW = "new"
    PAID = "paid"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"


ALLOWED = {
    Status.NEW: {Status.PAID, Status.CANCELLED},
    Status.PAID: {Status.SHIPPED, Status.CANCELLED},
    Status.SHIPPED: {Status.DELIVERED},
}


class TransitionError(Exception):
    def __init__(self, src, dst):
        super().__init__(f"cannot go from {src.value} to {dst.value}")
        self.src, self.dst = src, dst


class Order:
    def __init__(self, oid):
        self.oid = oid
        self.status = Status.NEW
        self.history = [Status.NEW]

    def move(self, dst):
        if dst not in ALLOWED.get(self.status, set()):
            raise TransitionError(self.status, dst)
        self.status = dst
        self.history.append(dst)


o = Order(1)
for step in ["paid", "shipped", "delivered", "cancelled"]:
    try:
        o.move(Status(step))
        print("now", o.status.name)
    except TransitionError as e:
        print("error:", e, "| from", e.src.name)
print(" -> ".join(s.value for s in o.history))
terminal = [s.name for s in Status if s not in ALLOWED]
print(terminal)
