def classify(exc: Exception) -> str:
    if isinstance(exc, (KeyError, IndexError)):
        return "lookup"
    if isinstance(exc, ArithmeticError):
        return "arithmetic"
    if isinstance(exc, ValueError):
        return "value"
    return "other"


samples = []
for action in ("d['x']", "[][1]", "1/0", "int('z')", "None.x"):
    try:
        if action == "d['x']":
            {}["x"]
        elif action == "[][1]":
            [][1]
        elif action == "1/0":
            1 / 0
        elif action == "int('z')":
            int("z")
        else:
            None.x
    except Exception as e:
        samples.append(e)

for e in samples:
    print(f"{type(e).__name__:<18} {classify(e):<10} {isinstance(e, LookupError)} {isinstance(e, Exception)}")
