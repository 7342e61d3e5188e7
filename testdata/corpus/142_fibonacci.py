from typing import Dict, List


def fib_iter(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fib_memo(n: int, memo: Dict[int, int] = {}) -> int:
    if n < 2:
        return n
    if n not in memo:
        memo[n] = fib_memo(n - 1) + fib_memo(n - 2)
    return memo[n]


def fib_list(count: int) -> List[int]:
    seq = [0, 1]
    while len(seq) < count:
        seq.append(seq[-1] + seq[-2])
    return seq[:count]


print(fib_list(15))
print(fib_iter(100), fib_memo(100), fib_iter(100) == fib_memo(100))
print([n for n in fib_list(30) if n % 2 == 0])
print(sum(n for n in fib_list(40) if n < 4_000_000 and n % 2 == 0))
assert all(fib_iter(i) == fib_memo(i) for i in range(50))
