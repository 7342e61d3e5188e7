def collatz_length(n: int, cache: dict) -> int:
    steps = 0
    path = []
    while n != 1 and n not in cache:
        path.append(n)
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    base = cache.get(n, 0)
    for i, m in enumerate(reversed(path), start=1):
        cache[m] = base + i
    return base + steps


cache = {1: 0}
lengths = {n: collatz_length(n, cache) for n in range(1, 3001)}
best = max(lengths, key=lambda n: (lengths[n], -n))
print("longest chain under 3001:", best, lengths[best])
print([lengths[n] for n in range(1, 11)])
print(sorted(lengths.items(), key=lambda kv: -kv[1])[:3])


def sequence(n):
    seq = [n]
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        seq.append(n)
    return seq


print(sequence(6), max(sequence(27)), len(sequence(27)))
