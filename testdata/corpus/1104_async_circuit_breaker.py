"""A circuit breaker guarding an unreliable async dependency."""
import asyncio


class CircuitOpen(Exception):
    pass


class CircuitBreaker:
    def __init__(self, max_failures: int, reset_after: int):
        self.max_failures = max_failures
        self.reset_after = reset_after
        self.failures = 0
        self.state = "closed"
        self.rejected = 0

    async def call(self, fn, *args):
        if self.state == "open":
            self.rejected += 1
            if self.rejected >= self.reset_after:
                self.state = "half-open"
            raise CircuitOpen("circuit open, call rejected")
        try:
            result = await fn(*args)
        except ConnectionError:
            self.failures += 1
            if self.state == "half-open" or self.failures >= self.max_failures:
                self.state, self.rejected = "open", 0
            raise
        self.failures, self.state = 0, "closed"
        return result


async def flaky(i: int) -> str:
    await asyncio.sleep(0)
    if i in {2, 3, 4, 8}:
        raise ConnectionError(f"request {i} failed")
    return f"ok {i}"


async def main():
    breaker = CircuitBreaker(max_failures=2, reset_after=2)
    for i in range(1, 12):
        try:
            outcome = await breaker.call(flaky, i)
        except (ConnectionError, CircuitOpen) as e:
            outcome = f"{type(e).__name__}: {e}"
        print(f"{i:2} [{breaker.state:9}] {outcome}")


asyncio.run(main())
