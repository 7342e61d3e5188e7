"""Merge several async generators into one stream ordered by arrival time."""
import asyncio

_DONE = object()


async def feed(name: str, delays: list[float]):
    for i, delay in enumerate(delays, 1):
        await asyncio.sleep(delay)
        yield f"{name}{i}"


async def merge(*agens):
    queue = asyncio.Queue()

    async def drain(agen):
        async for item in agen:
            await queue.put(item)
        await queue.put(_DONE)

    tasks = [asyncio.create_task(drain(g)) for g in agens]
    remaining = len(tasks)
    while remaining:
        item = await queue.get()
        if item is _DONE:
            remaining -= 1
        else:
            yield item
    await asyncio.gather(*tasks)


async def main():
    merged = [item async for item in merge(feed("a", [0.01, 0.04]), feed("b", [0.03]))]
    print(merged)
    async for item in merge(feed("x", [0.01, 0])):
        print("single:", item)
    print([i async for i in merge()])


asyncio.run(main())
