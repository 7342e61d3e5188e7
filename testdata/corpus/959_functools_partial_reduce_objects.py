"""functools.partial and reduce with objects: a pipeline of configured transforms."""
from functools import partial, reduce


class Transform:
    def __init__(self, name, fn):
        self.name, self.fn = name, fn

    def __call__(self, value):
        return self.fn(value)

    def __repr__(self):
        return f"<{self.name}>"


def scale(x, factor):
    return x * factor


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


pipeline = [Transform("double", partial(scale, factor=2)), Transform("clamp", partial(clamp, lo=0, hi=50)),
            Transform("shift", lambda x: x - 5)]
run = lambda value: reduce(lambda acc, t: t(acc), pipeline, value)
print(pipeline, [run(v) for v in (-3, 10, 40)])
p = partial(clamp, lo=1)
print(p.func.__name__, p.args, p.keywords, p(5, hi=3))
print(reduce(lambda a, b: a if a.name < b.name else b, pipeline))
