metrics = {
    "visitors": (12_450, 15_020),
    "signups": (310, 287),
    "revenue": (48_200.50, 61_775.25),
    "churn": (0.031, 0.024),
    "refunds": (0, 4),
}


def pct_change(old: float, new: float) -> str:
    if old == 0:
        return "n/a" if new == 0 else "new"
    change = (new - old) / old
    arrow = "▲" if change > 0 else "▼" if change < 0 else "="
    return f"{arrow} {change:+.1%}"


print(f"{'metric':<10}{'before':>12}{'after':>12}  change")
for name, (old, new) in metrics.items():
    if isinstance(old, float) and old < 1:
        print(f"{name:<10}{old:>12.1%}{new:>12.1%}  {pct_change(old, new)}")
    else:
        print(f"{name:<10}{old:>12,}{new:>12,}  {pct_change(old, new)}")
best = max((k for k in metrics if metrics[k][0]), key=lambda k: metrics[k][1] / metrics[k][0])
print("biggest growth:", best)
