"""Aggregate an async stream of (timestamp, value) events into fixed windows."""
import asyncio
from statistics import mean

EVENTS = [(0.5, 10), (1.2, 14), (1.9, 12), (2.1, 30), (4.0, 7), (4.4, 9), (4.9, 11), (7.3, 50)]


async def event_stream():
    for ts, value in EVENTS:
        await asyncio.sleep(0)
        yield ts, value


async def windows(stream, size: float):
    current, bucket = None, []
    async for ts, value in stream:
        index = int(ts // size)
        if current is not None and index != current and bucket:
            yield current * size, bucket
            bucket = []
        current = index
        bucket.append(value)
    if bucket:
        yield current * size, bucket


async def main():
    async for start, values in windows(event_stream(), 2.0):
        print(f"[{start:4.1f}, {start + 2:4.1f}) n={len(values)} mean={mean(values):.2f} max={max(values)}")
    sums = {start: sum(v) async for start, v in windows(event_stream(), 5.0)}
    print(sums)
    busiest = max([(len(v), s) async for s, v in windows(event_stream(), 1.0)])
    print("busiest 1s window:", busiest)


asyncio.run(main())
