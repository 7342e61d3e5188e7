from typing import List, Tuple


def knapsack(items: List[Tuple[str, int, int]], capacity: int) -> Tuple[int, List[str]]:
    """0/1 knapsack: items are (name, weight, value)."""
    n = len(items)
    best = [[0] * (capacity + 1) for _ in range(n + 1)]
    for i, (_, w, v) in enumerate(items, start=1):
        for c in range(capacity + 1):
            best[i][c] = best[i - 1][c]
            if w <= c and best[i - 1][c - w] + v > best[i][c]:
                best[i][c] = best[i - 1][c - w] + v
    chosen = []
    c = capacity
    for i in range(n, 0, -1):
        if best[i][c] != best[i - 1][c]:
            name, w, _ = items[i - 1]
            chosen.append(name)
            c -= w
    return best[n][capacity], chosen[::-1]


items = [("tent", 5, 60), ("stove", 3, 50), ("camera", 4, 70), ("book", 2, 30), ("snacks", 1, 10)]
for cap in (0, 5, 8, 10, 15):
    value, chosen = knapsack(items, cap)
    print(f"capacity {cap:>2}: value {value:>3} {chosen}")
