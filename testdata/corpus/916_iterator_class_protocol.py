"""Iterator classes with __iter__ and __next__: a countdown, a chunker and StopIteration."""


class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current + 1


class Chunks:
    def __init__(self, seq, size):
        self.seq, self.size = seq, size

    def __iter__(self):
        return ChunkIter(self)


class ChunkIter:
    def __init__(self, chunks):
        self.c, self.i = chunks, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= len(self.c.seq):
            raise StopIteration
        piece = self.c.seq[self.i:self.i + self.c.size]
        self.i += self.c.size
        return piece


cd = Countdown(3)
print(list(cd), list(cd))
print([x * 10 for x in Countdown(4)], sum(Countdown(100)))
ch = Chunks("abcdefgh", 3)
print(list(ch), list(ch), dict(enumerate(ch)))
it = iter(Countdown(2))
print(next(it), next(it), next(it, "done"))
for a, b in zip(Countdown(3), Chunks([1, 2, 3, 4, 5], 2)):
    print(a, b)
