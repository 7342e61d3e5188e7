"""A background heartbeat task runs while main works, then is cancelled cleanly."""
import asyncio

beats = []


async def heartbeat(interval: float):
    n = 0
    try:
        while True:
            await asyncio.sleep(interval)
            n += 1
            beats.append(n)
    except asyncio.CancelledError:
        print(f"heartbeat stopping after {n} beats")
        raise


async def work(steps: int):
    for i in range(steps):
        await asyncio.sleep(0.04)
        print(f"work step {i + 1} (beats so far: {len(beats)})")


async def main():
    hb = asyncio.create_task(heartbeat(0.04))
    await asyncio.sleep(0.02)
    await work(2)
    hb.cancel()
    try:
        await hb
    except asyncio.CancelledError:
        pass
    print("beats:", beats, "| cancelled:", hb.cancelled())


asyncio.run(main())
