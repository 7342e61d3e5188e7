def factorial(n: int) -> int:
    """Return n! recursively."""
    return 1 if n <= 1 else n * factorial(n - 1)


def flatten(nested):
    out = []
    for item in nested:
        if isinstance(item, (list, tuple)):
            out.extend(flatten(item))
        else:
            out.append(item)
    return out


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


def hanoi(n, src="A", dst="C", via="B", moves=None):
    if moves is None:
        moves = []
    if n:
        hanoi(n - 1, src, via, dst, moves)
        moves.append(f"{src}->{dst}")
        hanoi(n - 1, via, dst, src, moves)
    return moves


print([factorial(n) for n in range(8)], factorial(25))
print(flatten([1, [2, [3, [4, (5, 6)]]], [], [[7]]]))
print(depth({"a": {"b": [1, {"c": 2}]}}), depth([]), depth(5))
print(hanoi(3), len(hanoi(10)))
