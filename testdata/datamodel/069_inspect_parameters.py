# Parameter kinds, defaults, empty markers and bind errors.
import inspect


def f(a, b=2, *c, d, e=5, **g):
    pass


sig = inspect.signature(f)
for name, p in sig.parameters.items():
    print(name, p.kind.name, p.default is inspect.Parameter.empty and "-" or p.default, str(p))
print(sig.return_annotation is inspect.Signature.empty)
print(sig.bind(1, d=4).arguments)
ba = sig.bind(1, 2, 3, d=4, z=9)
ba.apply_defaults()
print(ba.arguments)
for args, kwargs in [((), {}), ((1,), {}), ((1,), {"d": 1, "b": 1, "a": 2})]:
    try:
        sig.bind(*args, **kwargs)
    except TypeError as e:
        print(type(e).__name__, e)
