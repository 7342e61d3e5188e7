import re

patterns = {
    "price": r"\$(\d+(?:\.\d\d)?)",
    "nothing_to_repeat": r"*.txt",
    "unbalanced": r"(abc",
    "bad_range": r"[z-a]",
    "date": r"(\d{4})-(\d{2})-(\d{2})",
}

compiled = {}
for name, pat in sorted(patterns.items()):
    try:
        compiled[name] = re.compile(pat)
        print(f"{name}: ok, {compiled[name].groups} groups")
    except re.error as e:
        print(f"{name}: cannot compile: {e.msg} at {e.pos}")

text = "Paid $12.50 on 2024-01-31, refund $3 on 2024-02-02"
print(compiled["price"].findall(text))
print(compiled["date"].findall(text))
print([m.span() for m in compiled["date"].finditer(text)])

# A rewrite that needs no look-ahead: match both, keep only the first kind.
words = "foo foobar food foo"
print([m.group(0) for m in re.finditer(r"foo(bar)?", words) if m.group(1) is None])
# Repeated words without a backreference: compare neighbours.
toks = re.split(r"\s+", "the the cat sat sat down")
print([a for a, b in zip(toks, toks[1:]) if a == b])

print(re.split(r"[,;]\s*", "a, b;c,  d", maxsplit=2))
print(re.split(r"(-)", "2024-01-31"))
print(re.fullmatch(r"[a-z]+", "abc") is not None, re.fullmatch(r"[a-z]+", "abc1"))
print(re.search(r"(?i)ERROR", "minor error here").group())
