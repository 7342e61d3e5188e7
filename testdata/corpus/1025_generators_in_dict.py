"""Named generator streams kept in a dict and pulled on demand."""
import itertools


def counter(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle_names(names):
    yield from itertools.cycle(names)


streams = {
    "ids": counter(1000),
    "evens": counter(0, 2),
    "shift": cycle_names(["morning", "evening", "night"]),
    "letters": iter("ABC"),
}


def pull(name, n=1):
    return [next(streams[name], None) for _ in range(n)]


print(pull("ids", 3), pull("evens", 4), pull("shift", 4), pull("letters", 5))
assignments = [(next(streams["ids"]), next(streams["shift"])) for _ in range(3)]
print(assignments)

exhausted = [name for name, gen in sorted(streams.items()) if next(gen, None) is None]
print("exhausted:", exhausted)

pool = [counter(i * 10) for i in range(3)]
print([next(g) for g in pool], [next(g) for g in pool])
print(list(map(next, pool)))
firsts = {k: next(v) for k, v in {"a": counter(5), "b": counter(7, -1)}.items()}
print(firsts)
