raw_rows = ["10", "", "x", "25", "stop", "40"]
values = []
skipped = 0

for row in raw_rows:
    try:
        if not row:
            skipped += 1
            continue
        if row == "stop":
            print("stop marker found")
            break
        number = int(row)
    except ValueError:
        print(f"not a number: {row!r}")
        skipped += 1
        continue
    values.append(number)

print(values, "skipped", skipped)


def first_valid(rows):
    for r in rows:
        try:
            return int(r)
        except ValueError:
            continue
    return None


print(first_valid(["a", "b", "7", "8"]), first_valid(["a"]))
try:
    parsed = [int(r) for r in ["1", "2", "3"]]
except ValueError:
    parsed = []
print("parsed after try:", parsed, sum(parsed))
