from abc import ABC, abstractmethod
import functools, time

class Shape(ABC):
    registry = {}
    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        Shape.registry[cls.__name__.lower()] = cls
    @abstractmethod
    def area(self): ...
    def __lt__(self, other):
        return self.area() < other.area()
    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v}' for k, v in vars(self).items())})"

class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2

class Circle(Shape):
    def __init__(self, r): self.r = r
    def area(self): return round(3.14159 * self.r ** 2, 2)

shapes = [Shape.registry[n](x) for n, x in [("sq", 3), ("circle", 1), ("sq", 1)]]
print(sorted(shapes), min(shapes), sum(s.area() for s in shapes))

def retry(times=3, exceptions=(ValueError,)):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a, **k):
            for attempt in range(1, times + 1):
                try:
                    return fn(*a, **k)
                except exceptions as e:
                    print(f"attempt {attempt} failed: {e}")
            raise RuntimeError(f"{fn.__name__} failed after {times}")
        return wrapper
    return deco

calls = {"n": 0}
@retry(times=3)
def flaky():
    """Sometimes works."""
    calls["n"] += 1
    if calls["n"] < 3:
        raise ValueError(f"try {calls['n']}")
    return "ok"

print(flaky(), flaky.__name__, flaky.__doc__)

class Timer:
    def __enter__(self):
        self.entered = True
        return self
    def __exit__(self, et, ev, tb):
        print("exit", et.__name__ if et else None)
        return et is KeyError

with Timer() as t:
    print("inside", t.entered)
with Timer():
    raise KeyError("swallowed")
print("after")

class Account:
    interest = 0.02
    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
    @property
    def balance(self):
        return self._balance
    @balance.setter
    def balance(self, v):
        if v < 0:
            raise ValueError("negative balance")
        self._balance = v
    @classmethod
    def from_dict(cls, d):
        return cls(**d)
    def __eq__(self, o):
        return isinstance(o, Account) and (self.owner, self._balance) == (o.owner, o._balance)
    __hash__ = None

a = Account.from_dict({"owner": "ana", "balance": 10})
a.balance += 5
try:
    a.balance = -1
except ValueError as e:
    print("error:", e)
print(a.balance, a == Account("ana", 15), a != Account("bo"), Account.interest)
try:
    {a}
except TypeError as e:
    print(e)
