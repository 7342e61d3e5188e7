def safe_ratio(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        return float("inf") if a > 0 else float("-inf") if a < 0 else float("nan")


pairs = [(1, 2), (5, 0), (-3, 0), (0, 0), (7, 7)]
for a, b in pairs:
    print(a, b, safe_ratio(a, b))

for expr in ["10 // 0", "10 % 0", "10 / 0", "10.0 / 0", "divmod(4, 0)"]:
    try:
        if expr == "10 // 0":
            10 // 0
        elif expr == "10 % 0":
            10 % 0
        elif expr == "10 / 0":
            10 / 0
        elif expr == "10.0 / 0":
            10.0 / 0
        else:
            divmod(4, 0)
    except ZeroDivisionError as e:
        print(f"{expr}: {e}")

averages = {}
for name, scores in {"a": [1, 2, 3], "b": []}.items():
    try:
        averages[name] = sum(scores) / len(scores)
    except ZeroDivisionError:
        averages[name] = None
print(averages)
