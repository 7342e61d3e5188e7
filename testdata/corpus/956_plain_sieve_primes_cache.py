"""Prime utilities with a sieve, a cached primality check and factorisation."""
from functools import lru_cache


def sieve(n):
    flags = [True] * (n + 1)
    flags[0:2] = [False, False]
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            flags[i * i::i] = [False] * len(flags[i * i::i])
    return [i for i, f in enumerate(flags) if f]


@lru_cache(maxsize=None)
def is_prime(n):
    return n > 1 and all(n % p for p in range(2, int(n ** 0.5) + 1))


def factorise(n):
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


print(sieve(50))
print([n for n in range(90, 110) if is_prime(n)], is_prime.cache_info().currsize)
print({n: factorise(n) for n in (12, 97, 360, 1001)})
twins = [(p, p + 2) for p in sieve(100) if is_prime(p + 2)]
print(twins, is_prime.cache_info().hits > 0)
