from typing import Dict

FACTORS: Dict[str, Dict[str, float]] = {
    "length": {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048, "mi": 1609.344},
    "mass": {"g": 0.001, "kg": 1.0, "lb": 0.45359237, "oz": 0.028349523125},
}


def convert(value: float, src: str, dst: str) -> float:
    for kind, table in FACTORS.items():
        if src in table and dst in table:
            return value * table[src] / table[dst]
    raise ValueError(f"cannot convert {src!r} to {dst!r}")


requests = [(5, "km", "mi"), (12, "in", "cm"), (150, "lb", "kg"), (1, "mi", "ft"), (3, "kg", "km")]
for value, src, dst in requests:
    try:
        result = convert(value, src, dst)
    except ValueError as e:
        print(f"{value} {src} -> {dst}: {e}")
    else:
        print(f"{value} {src} = {result:.4g} {dst}")

print(f"{convert(1, 'm', 'mm'):,.0f} mm in a meter")
print(round(convert(26.2, "mi", "km"), 3))
