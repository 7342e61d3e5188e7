"""A decorator that checks argument types against annotations using inspect.signature."""
import functools
import inspect


def typechecked(fn):
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            ann = sig.parameters[name].annotation
            if ann is not inspect.Parameter.empty and not isinstance(value, ann):
                raise TypeError(f"{fn.__name__}(): {name} must be {ann.__name__}, not {type(value).__name__}")
        return fn(*args, **kwargs)
    return wrapper


@typechecked
def repeat(text: str, times: int = 2, sep: str = " ") -> str:
    return sep.join([text] * times)


print(repeat("ha"), repeat("ho", 3, sep="-"), repeat.__name__)
for args, kwargs in [(("ha", "3"), {}), ((5,), {}), (("x",), {"sep": None})]:
    try:
        repeat(*args, **kwargs)
    except TypeError as e:
        print("TypeError:", e)
try:
    repeat()
except TypeError as e:
    print("TypeError:", e)
