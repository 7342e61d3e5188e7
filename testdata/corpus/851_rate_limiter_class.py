"""A token-bucket rate limiter driven by a fake clock object passed in."""


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class RateLimiter:
    def __init__(self, rate, burst, clock):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self):
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


clock = FakeClock()
rl = RateLimiter(rate=2, burst=3, clock=clock)
timeline = []
for step in range(12):
    timeline.append("Y" if rl.allow() else "n")
    clock.advance(0.2)
print("".join(timeline))
clock.advance(10)
print([rl.allow() for _ in range(5)], round(rl.tokens, 2))
