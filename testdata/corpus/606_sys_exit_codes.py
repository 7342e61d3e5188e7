import sys


def validate(record):
    errors = []
    if not record.get("name"):
        errors.append("name is empty")
    if record.get("age", 0) < 0:
        errors.append("age is negative")
    return errors


def main(records):
    failures = 0
    for r in records:
        errs = validate(r)
        if errs:
            failures += 1
            print(f"invalid {r}: {'; '.join(errs)}")
    if failures:
        sys.exit(failures)
    sys.exit(0)


for batch in ([{"name": "a", "age": 3}], [{"name": "", "age": -1}, {"name": "b", "age": -2}]):
    try:
        main(batch)
    except SystemExit as e:
        print("exit code", e.code, type(e).__name__, isinstance(e, Exception), isinstance(e, BaseException))

try:
    sys.exit("fatal: no input")
except SystemExit as e:
    print("message:", e.code, e.args)
try:
    sys.exit()
except SystemExit as e:
    print("bare exit:", e.code)
print("still running")
sys.exit(0)
print("never printed")
