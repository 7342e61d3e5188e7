"""Validate identifiers and contacts with conditional groups, atomic groups and possessive repeats."""
import re

PHONE = re.compile(r"^(\()?\d{3}(?(1)\))[-. ]?\d{3}[-.]\d{4}$")
for s in ["(555) 123-4567", "555-123-4567", "(555-123-4567", "555) 123-4567", "555.123.4567"]:
    print(f"{s:<16} {'ok' if PHONE.match(s) else 'bad'}")

EMAIL = re.compile(r"(?P<open><)?(?P<addr>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)(?(open)>)")
text = "Contact <ann@example.org>, bob.smith+news@mail.co.uk or <broken@x.com"
print([m.group("addr") for m in EMAIL.finditer(text)])

# Quoted strings with escapes, without backtracking into the body.
QUOTED = re.compile(r'"(?:[^"\\]++|\\.)*+"')
print(QUOTED.findall(r'say "hi \"there\"" and "bye" then "open'))

# An atomic group gives up no text once it has matched.
print(re.findall(r"(?>\d+)(?!\.)\b", "12 3.5 400 7."))
print(re.fullmatch(r"(?>a+)b", "aaab") is not None, re.fullmatch(r"(?>a+)ab", "aaab"))

# Repeated words and paired tags with backreferences.
print(re.sub(r"\b(\w+)(?:\s+\1\b)+", r"\1", "this is is a test test test of of it"))
print(re.findall(r"<(?P<tag>\w+)>(.*?)</(?P=tag)>", "<b>bold</b> <i>it</b> <i>ok</i>"))

# Thousands separators in a report.
SEP = re.compile(r"(?<=\d)(?=(?:\d{3})+$)")
for n in [7, 1234, 98765432, 1000000]:
    print(f"{n:>10} -> {SEP.sub(',', str(n)):>12}")

for bad in [r"(?(2)a|b)(c)", r"(a)?(?(1)b|c|d)", r"(?<=a*)b"]:
    try:
        re.compile(bad)
    except re.error as e:
        print("re.error:", e)
