# A generator that tries to advance itself while running raises ValueError.
class Feed:
    def __init__(self, items):
        self.items = items
        self.gen = self._produce()

    def _produce(self):
        for item in self.items:
            if item == "again":
                print("generator asks for its own next value")
                yield next(self.gen)
            yield item.upper()

    def take(self, n):
        return [next(self.gen) for _ in range(n)]


feed = Feed(["a", "b", "again", "c"])
print(feed.take(2))
print(feed.gen.gi_running)
print(feed.take(1))
print("unreachable")
