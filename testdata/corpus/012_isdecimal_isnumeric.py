samples = ["123", "12.5", "²", "½", "٣", "-4", "", "Ⅻ", "007", "1e3", " 42 "]

print(f"{'value':>8} {'digit':>6} {'decimal':>8} {'numeric':>8} {'alpha':>6}")
for s in samples:
    print(f"{s!r:>8} {s.isdigit()!s:>6} {s.isdecimal()!s:>8} {s.isnumeric()!s:>8} {s.isalpha()!s:>6}")


def parse_count(s: str):
    s = s.strip()
    if s.isdecimal():
        return int(s)
    return None


for s in ["12", " 7 ", "x", "3.0", "٣"]:
    print(repr(s), "->", parse_count(s))

print("abc123".isalnum(), "abc 123".isalnum(), "   ".isspace(), "\t\n".isspace())
