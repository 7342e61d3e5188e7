def sieve(limit: int) -> list:
    """Sieve of Eratosthenes: all primes <= limit."""
    if limit < 2:
        return []
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if is_prime[i]:
            for j in range(i * i, limit + 1, i):
                is_prime[j] = False
    return [i for i, p in enumerate(is_prime) if p]


primes = sieve(100)
print(primes)
print(len(sieve(10_000)), sieve(10_000)[-1])
print(sieve(1), sieve(2))

twins = [(p, p + 2) for p in primes if p + 2 in primes]
print(twins)
gaps = [b - a for a, b in zip(primes, primes[1:])]
print(max(gaps), gaps.count(2))
