def c_to_f(c: float) -> float:
    return c * 9 / 5 + 32


def f_to_c(f: float) -> float:
    return (f - 32) * 5 / 9


print(f"{'°C':>6} | {'°F':>7} | {'K':>7}")
print("-" * 26)
for c in range(-40, 101, 20):
    print(f"{c:>6} | {c_to_f(c):>7.1f} | {c + 273.15:>7.2f}")

readings = {"Oslo": 28.4, "Cairo": 104.0, "Quito": 59.0}
for city, f in readings.items():
    c = f_to_c(f)
    label = "hot" if c >= 30 else "mild" if c >= 10 else "cold"
    print(f"{city:<6} {f:5.1f}°F = {c:5.1f}°C ({label})")
assert round(f_to_c(c_to_f(37.0)), 9) == 37.0
