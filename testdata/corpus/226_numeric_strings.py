fields = {"age": "42", "height": "1.80", "rank": "³", "score": "½", "code": "007", "year": "２０２４", "neg": "-5"}

for name, raw in fields.items():
    kind = "decimal" if raw.isdecimal() else "digit" if raw.isdigit() else "numeric" if raw.isnumeric() else "text"
    print(f"{name:<7} {raw!r:<8} {kind}")

parsed = {}
for name, raw in fields.items():
    if raw.isdecimal():
        parsed[name] = int(raw)
    else:
        try:
            parsed[name] = float(raw)
        except ValueError:
            parsed[name] = None
print(parsed)
print(all(ch.isdecimal() for ch in "0123456789"), "٣".isdecimal(), "Ⅳ".isnumeric(), "Ⅳ".isdecimal())
