raw = "  apples, bananas ,cherries,, dates  "
parts = raw.split(",")
print(parts)
clean = [p.strip() for p in parts if p.strip()]
print(clean)
print(" | ".join(clean))

line = "key1=value1;key2=value2;;key3="
pairs = [kv.split("=", 1) for kv in line.split(";") if kv]
print(pairs)

print("a b  c".split(" "))
print("a b  c".split())
print("one two three four".split(maxsplit=2))
print("path/to/some/file.txt".rsplit("/", 1))
print("xxhixx".strip("x"), "xxhixx".lstrip("x"), "xxhixx".rstrip("x"))
print("...title...".strip("."))
print("-".join(["2024", "01", "15"]))
print(",".join(str(n) for n in range(5)))
