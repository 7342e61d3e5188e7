"""A fixed-size ring buffer class for recent metrics with averages and iteration order."""


class RingBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = [None] * capacity
        self.start = 0
        self.size = 0

    def append(self, x):
        end = (self.start + self.size) % self.capacity
        self.data[end] = x
        if self.size < self.capacity:
            self.size += 1
        else:
            self.start = (self.start + 1) % self.capacity

    def __len__(self):
        return self.size

    def __iter__(self):
        return iter([self.data[(self.start + i) % self.capacity] for i in range(self.size)])

    def __repr__(self):
        return f"RingBuffer({list(self)}, capacity={self.capacity})"

    def mean(self):
        return sum(self) / len(self) if self else 0.0


rb = RingBuffer(4)
print(rb, rb.mean(), bool(rb))
for latency in [120, 80, 95, 300, 110, 90]:
    rb.append(latency)
    print(len(rb), list(rb), round(rb.mean(), 1))
print(rb, max(rb), sorted(rb))
