lines = iter(["header: csv", "a,1", "b,2", "c,3"])
header = next(lines)
print("header:", header)
rows = [line.split(",") for line in lines]
print(rows)
print(next(lines, "exhausted"))

it = iter(range(5))
print(next(it), next(it))
print(list(it))
print(next(it, None))

def first_match(items, predicate, default=None):
    return next((x for x in items if predicate(x)), default)

people = [{"name": "Ann", "age": 17}, {"name": "Ben", "age": 21}, {"name": "Cy", "age": 30}]
print(first_match(people, lambda p: p["age"] >= 18))
print(first_match(people, lambda p: p["age"] > 65, {"name": "nobody"}))

chars = iter("héllo")
print(next(chars), next(chars), "".join(chars))
