"""A data-cleaning pipeline of small functions registered with a decorator and run in order."""
STEPS = []


def step(func):
    STEPS.append(func)
    return func


@step
def strip_fields(rows):
    return [{k.strip().lower(): v.strip() for k, v in r.items()} for r in rows]


@step
def drop_empty(rows):
    return [r for r in rows if all(r.values())]


@step
def cast_numbers(rows):
    return [{k: int(v) if v.isdigit() else v for k, v in r.items()} for r in rows]


@step
def dedupe(rows):
    seen, out = set(), []
    for r in rows:
        key = tuple(sorted(r.items()))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


raw = [{" Name": "ana ", "Age ": " 31"}, {" Name": "", "Age ": "4"},
       {" Name": "bo", "Age ": "25"}, {" Name": "ana", "Age ": "31"}]
rows = raw
for fn in STEPS:
    rows = fn(rows)
    print(f"{fn.__name__:<14}{len(rows)}")
print(rows)
print([f.__name__ for f in STEPS])
