# str(inspect.signature(f)) for every parameter kind, defaults and annotations.
import inspect


def a(x, y=1, *args, z, w=2, **kw): pass
def b(p, /, q, *, r): pass
def c(n: int, s: str = "x", *rest: float) -> bool: pass
def d(items: list[int] = [], opt: "Fwd" = None): pass


for fn in (a, b, c, d, lambda: 0, lambda *a, **k: 0):
    print(fn.__name__, inspect.signature(fn))


class K:
    def method(self, v, *, flag=False):
        pass


print(inspect.signature(K.method), inspect.signature(K().method), inspect.signature(K))
