base = r"C:\Users\agent"
projects = ["alpha", "beta"]

for p in projects:
    print(fr"{base}\{p}\src\main.py")
    print(rf"{base}\{p}\tests")

separator = "\\"
print(separator.join([base, "logs", "today.log"]))
print(len(r"\n\t"), len("\n\t"))
pattern = rf"\b{projects[0]}\b\s+\d+"
print(pattern, pattern.count("\\"))
print(f"{len(base)} chars, ends with {base[-5:]!r}")
