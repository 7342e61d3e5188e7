from collections import OrderedDict
import functools

CAPACITY = 3
cache = OrderedDict()
hits = misses = 0
evicted = []

requests = ["a", "b", "c", "a", "d", "b", "e", "a", "c", "a"]
for key in requests:
    if key in cache:
        cache.move_to_end(key)
        hits += 1
    else:
        misses += 1
        cache[key] = key.upper() * 2
        if len(cache) > CAPACITY:
            old, _ = cache.popitem(last=False)
            evicted.append(old)
print("final order:", list(cache.keys()))
print("hits", hits, "misses", misses, "evicted", evicted)
print(cache)

calls = []


def slow_square(n):
    calls.append(n)
    return n * n


fast_square = functools.lru_cache(maxsize=2)(slow_square)
results = [fast_square(n) for n in [2, 3, 2, 4, 2, 3]]
print(results, "computed for", calls)
info = fast_square.cache_info()
print(info.hits, info.misses, info.maxsize, info.currsize)

total = functools.reduce(lambda acc, kv: acc + len(kv[1]), cache.items(), 0)
print("total value length:", total)
first = OrderedDict(sorted({"z": 1, "y": 2, "x": 3}.items()))
first.move_to_end("x", last=False)
print(list(first.items()), dict(first) == {"x": 3, "y": 2, "z": 1})
