"""zip and enumerate combine infinite and finite generators; the shortest wins."""
from itertools import count, cycle, repeat, zip_longest

tasks = (t for t in ["build", "test", "lint", "deploy", "notify"])
workers = cycle(["w1", "w2"])
schedule = list(zip(count(start=1), tasks, workers))
for slot, task, worker in schedule:
    print(f"slot {slot}: {task} on {worker}")


def readings():
    for value in [12.5, 13.0, 12.75]:
        print(f"  (reading {value})")
        yield value


for i, (r, unit) in enumerate(zip(readings(), repeat("C")), start=100):
    print(i, r, unit)

gen_a = (x * x for x in range(3))
gen_b = (c.upper() for c in "wxyz")
print(list(zip_longest(gen_a, gen_b, fillvalue="-")))

labels = enumerate(x for x in "abc")
print(next(labels), list(labels))
pairs = zip(range(10), (print("pulled", c) or c for c in "pq"))
print(list(pairs))
print(dict(zip((f"k{i}" for i in count()), [True, False])))
