todo = ["write tests", "fix bug #12", "review PR", "deploy"]

for i, task in enumerate(todo, start=1):
    print(f"{i}. {task}")

for i, task in enumerate(todo, 10):
    print(i, task)

print(list(enumerate("abc")))
print(dict(enumerate(["x", "y"], start=100)))

lines = ["ok", "ok", "ERROR disk full", "ok", "ERROR timeout"]
errors = [(n, line) for n, line in enumerate(lines, start=1) if line.startswith("ERROR")]
for n, line in errors:
    print(f"line {n}: {line}")

for idx, (a, b) in enumerate(zip("xyz", [1, 2, 3])):
    print(idx, a, b)
