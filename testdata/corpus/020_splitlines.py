doc = """First line
Second line

Fourth line after a blank
   indented line
Last"""

lines = doc.splitlines()
print(len(lines))
for n, line in enumerate(lines, start=1):
    print(f"{n:>2}: {line!r}")

non_empty = [l for l in lines if l.strip()]
print(len(non_empty))

print("a\nb\r\nc\rd".splitlines())
print("x\ny\n".splitlines(), "x\ny\n".split("\n"))
print("one\ntwo\n".splitlines(keepends=True))
longest = max(lines, key=len)
print("longest:", longest)
