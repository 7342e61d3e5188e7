values = [1, 2.5, "three", True, None, [4], (5,), {"six": 6}, {7}]

for v in values:
    kinds = []
    if isinstance(v, bool):
        kinds.append("bool")
    if isinstance(v, int):
        kinds.append("int")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        kinds.append("number")
    if isinstance(v, str):
        kinds.append("str")
    if isinstance(v, (list, tuple)):
        kinds.append("sequence")
    if isinstance(v, dict):
        kinds.append("mapping")
    if isinstance(v, set):
        kinds.append("set")
    if v is None:
        kinds.append("none")
    print(f"{v!r:>12}: {', '.join(kinds)}")

print(isinstance(True, int), isinstance(1, bool), isinstance(1.0, int), isinstance("", (bytes, str)))
