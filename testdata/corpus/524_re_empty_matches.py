# Agent-style: tokenising and splitting where a pattern can match nothing.
import re

print(re.findall(r".*?", "ab"))
print(re.split(r"\s*", "a b  c"))
print(re.sub(r"x*", "-", "abc"))
print(re.sub(r"a*?", "|", "baa"))
print([m.span() for m in re.finditer(r"\b", "hi there")])
print(re.findall(r"(?m)^\s*", "a\n  b\n"))

# Splitting CamelCase and numbers: zero-width boundaries.
def words(s):
    return re.findall(r"[A-Z]?[a-z]+|\d+", s)

print(words("parseHTTPResponse2024Code"))
print(re.sub(r"(\d*)", r"<\1>", "a12b"))
print(re.subn(r"|x", "_", "xax"))
print(re.split(r"(,?)", "1,2"))
m = re.compile(r"\d*").match("abc")
print(repr(m.group()), m.span())
