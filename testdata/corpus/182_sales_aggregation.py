from typing import Dict, List, Tuple

sales: List[Tuple[str, str, int, float]] = [
    ("2024-01", "north", 120, 9.99),
    ("2024-01", "south", 80, 9.99),
    ("2024-02", "north", 95, 10.49),
    ("2024-02", "south", 130, 10.49),
    ("2024-02", "east", 40, 10.49),
    ("2024-03", "north", 150, 10.99),
    ("2024-03", "east", 60, 10.99),
]

revenue_by_region: Dict[str, float] = {}
units_by_month: Dict[str, int] = {}
for month, region, units, price in sales:
    revenue_by_region[region] = revenue_by_region.get(region, 0.0) + units * price
    units_by_month[month] = units_by_month.get(month, 0) + units

total = sum(revenue_by_region.values())
for region, revenue in sorted(revenue_by_region.items(), key=lambda kv: kv[1], reverse=True):
    print(f"{region:<6} {revenue:>9.2f} {revenue / total:6.1%}")
print(f"{'total':<6} {total:>9.2f}")

months = list(units_by_month)
for prev, cur in zip(months, months[1:]):
    change = (units_by_month[cur] - units_by_month[prev]) / units_by_month[prev]
    print(f"{prev} -> {cur}: {units_by_month[prev]} -> {units_by_month[cur]} ({change:+.1%})")
