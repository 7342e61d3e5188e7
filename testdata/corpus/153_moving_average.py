from typing import List, Optional


def moving_average(values: List[float], window: int) -> List[Optional[float]]:
    """Simple moving average; None until the window is full."""
    out: List[Optional[float]] = []
    total = 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(round(total / window, 2) if i >= window - 1 else None)
    return out


def cumulative(values):
    running = 0
    result = []
    for v in values:
        running += v
        result.append(running)
    return result


prices = [10.0, 11.0, 12.5, 12.0, 13.5, 15.0, 14.0, 13.0]
print(moving_average(prices, 3))
print(moving_average(prices, 1) == prices)
print(cumulative([1, 2, 3, 4]))
changes = [round((b - a) / a * 100, 1) for a, b in zip(prices, prices[1:])]
print(changes)
print(f"best day: +{max(changes)}%, worst day: {min(changes)}%")
