"""A TTL cache class with a fake clock, __contains__, __getitem__ and eviction statistics."""


class TTLCache:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.data = {}
        self.hits = self.misses = self.expired = 0

    def __setitem__(self, key, value):
        self.data[key] = (value, self.clock[0] + self.ttl)

    def __contains__(self, key):
        item = self.data.get(key)
        if item and item[1] <= self.clock[0]:
            del self.data[key]
            self.expired += 1
            return False
        return item is not None

    def __getitem__(self, key):
        if key in self:
            self.hits += 1
            return self.data[key][0]
        self.misses += 1
        raise KeyError(key)

    def get_or_compute(self, key, fn):
        try:
            return self[key]
        except KeyError:
            self[key] = value = fn(key)
            return value


clock = [0]
cache = TTLCache(ttl=5, clock=clock)
log = []
for t, key in [(0, "a"), (1, "a"), (2, "b"), (6, "a"), (6, "b"), (8, "b"), (9, "a")]:
    clock[0] = t
    value = cache.get_or_compute(key, lambda k: log.append(k) or k.upper() * 2)
    print(t, key, value)
print(log, cache.hits, cache.misses, cache.expired, sorted(cache.data))
