def sum_square_difference(n: int) -> int:
    """(1 + ... + n)^2 - (1^2 + ... + n^2)"""
    total = sum(range(1, n + 1))
    squares = sum(i * i for i in range(1, n + 1))
    return total ** 2 - squares


def closed_form(n: int) -> int:
    return (n * (n + 1) // 2) ** 2 - n * (n + 1) * (2 * n + 1) // 6


for n in [1, 10, 100, 1000]:
    assert sum_square_difference(n) == closed_form(n)
    print(n, sum_square_difference(n))

multiples = sum(x for x in range(1000) if x % 3 == 0 or x % 5 == 0)
print("multiples of 3 or 5 below 1000:", multiples)

largest_palindrome = max(
    a * b for a in range(100, 1000) for b in range(a, 1000, 37) if str(a * b) == str(a * b)[::-1]
)
print("a palindrome product:", largest_palindrome)
