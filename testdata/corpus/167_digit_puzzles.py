def digit_sum(n: int) -> int:
    return sum(int(d) for d in str(abs(n)))


def is_armstrong(n: int) -> bool:
    digits = str(n)
    return n == sum(int(d) ** len(digits) for d in digits)


def is_perfect(n: int) -> bool:
    return n > 1 and sum(d for d in range(1, n // 2 + 1) if n % d == 0) == n


def digital_root(n: int) -> int:
    while n >= 10:
        n = digit_sum(n)
    return n


print(digit_sum(12345), digit_sum(-909), digit_sum(2 ** 100))
print([n for n in range(1, 1000) if is_armstrong(n)])
print([n for n in range(1, 500) if is_perfect(n)])
print([digital_root(n) for n in (0, 9, 38, 123456789, 999999999999)])
print(sum(int(c) for c in str(2 ** 1000)))
print(int(str(12345)[::-1]), str(1_000_000).count("0"))
