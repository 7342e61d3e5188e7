"""A rate limiter allowing N calls per window, with requests processed in order."""
import asyncio


class RateLimiter:
    def __init__(self, per_window: int, window: float):
        self.per_window = per_window
        self.window = window
        self.sem = asyncio.Semaphore(per_window)

    async def __aenter__(self):
        await self.sem.acquire()

    async def __aexit__(self, *exc):
        asyncio.get_running_loop().call_later(self.window, self.sem.release)


async def fetch(url: str, limiter: RateLimiter, log: list) -> str:
    async with limiter:
        log.append(url)
        await asyncio.sleep(0)
        return f"{url}: 200"


async def main():
    limiter = RateLimiter(per_window=2, window=0.04)
    log = []
    urls = [f"/item/{i}" for i in range(6)]
    tasks = [asyncio.create_task(fetch(u, limiter, log)) for u in urls]
    await asyncio.sleep(0.02)
    print("first window:", log)
    await asyncio.sleep(0.04)
    print("second window:", log)
    results = await asyncio.gather(*tasks)
    print("all:", log)
    print(results[0], results[-1], len(results))


asyncio.run(main())
