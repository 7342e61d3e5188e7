def is_prime(n: int) -> bool:
    """Return True if n is a prime number.
    >>> is_prime(6)
    False
    >>> is_prime(101)
    True
    """
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0 or n % 3 == 0:
        return False
    i = 5
    while i * i <= n:
        if n % i == 0 or n % (i + 2) == 0:
            return False
        i += 6
    return True


def check(candidate):
    assert candidate(6) is False
    assert candidate(101) is True
    assert candidate(11) is True
    assert candidate(13441) is True
    assert candidate(61) is True
    assert candidate(4) is False
    assert candidate(1) is False
    assert candidate(5 * 17) is False
    assert candidate(11 * 7) is False
    assert candidate(13441 * 19) is False


check(is_prime)
print("all assertions passed")
print([n for n in range(50) if is_prime(n)])
print(is_prime(2_147_483_647), is_prime(1_000_000_007), is_prime(1_000_000_008))
