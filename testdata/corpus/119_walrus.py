data = [12, 7, 3, 18, 25, 4, 9]

if (n := len(data)) > 5:
    print(f"list is long ({n} elements)")

big = [y for x in data if (y := x * 2) > 20]
print(big)

chunks = iter(["alpha", "beta", "", "gamma"])
while (chunk := next(chunks, None)) is not None:
    if not chunk:
        print("empty chunk, stopping")
        break
    print("chunk:", chunk)

text = "key1=a;key2=b;bad;key3=c"
parsed = {}
for part in text.split(";"):
    if (eq := part.find("=")) != -1:
        parsed[part[:eq]] = part[eq + 1:]
print(parsed)

total = 0
values = [5, 10, 20, 40]
while values and (total := total + values.pop(0)) < 30:
    print("running total", total)
print("final total", total, "remaining", values)
