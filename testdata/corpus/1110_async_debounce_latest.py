"""Debouncing search input: each keystroke cancels the pending search and schedules a new one."""
import asyncio

searches = []


async def search(query: str, delay: float):
    try:
        await asyncio.sleep(delay)
        searches.append(query)
        print(f"searching for {query!r}")
    except asyncio.CancelledError:
        print(f"  dropped {query!r}")
        raise


class Debouncer:
    def __init__(self, delay: float):
        self.delay = delay
        self.pending = None

    def submit(self, query: str):
        if self.pending and not self.pending.done():
            self.pending.cancel()
        self.pending = asyncio.create_task(search(query, self.delay))


async def main():
    debounce = Debouncer(0.02)
    # keystrokes: quick bursts separated by pauses longer than the debounce delay
    for text, pause in [("p", 0), ("py", 0), ("pyt", 0.04), ("pyth", 0), ("pytho", 0), ("python", 0.04)]:
        debounce.submit(text)
        await asyncio.sleep(pause)
    await asyncio.sleep(0)
    print("searches run:", searches)


asyncio.run(main())
