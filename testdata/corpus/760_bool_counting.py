# Counting with bools: Python's bool is an int, so a predicate's result,
# a list of flags and a combined condition all add up.


def is_valid(record) -> bool:
    if record.get("email") is None:
        return False
    return "@" in record["email"] and record.get("age", 0) >= 18


def has_name(record):
    return bool(record.get("name"))


records = [
    {"name": "ann", "email": "ann@example.com", "age": 34},
    {"name": "", "email": "bob.example.com", "age": 41},
    {"name": "cy", "email": None, "age": 17},
    {"name": "dee", "email": "dee@example.com", "age": 18},
]

valid = 0
named = 0
for r in records:
    valid += is_valid(r)
    named = named + has_name(r)
print(f"valid: {valid}/{len(records)}, named: {named}")

adults = [r.get("age", 0) >= 18 for r in records]
print("adults:", sum(adults), "first two:", adults[0] + adults[1])

flags = []
for r in records:
    flags.append(r["name"].startswith("d"))
score = 0
for f in flags:
    score += f * 10
print("score:", score)

for r in records:
    in_range = r["age"] > 17 and r["age"] < 40
    print(r["name"] or "?", in_range + 0, 2 * (r["age"] % 2 == 0 or r["age"] > 40))
