"""Producer/consumer with a bounded queue and a None sentinel to stop the consumer."""
import asyncio


async def producer(queue: asyncio.Queue, items):
    for item in items:
        await queue.put(item)
        print(f"produced {item} (size {queue.qsize()})")
    await queue.put(None)
    print("producer done")


async def consumer(queue: asyncio.Queue) -> list:
    received = []
    while (item := await queue.get()) is not None:
        print(f"  consumed {item}")
        received.append(item.upper())
        await asyncio.sleep(0)
    return received


async def main():
    queue = asyncio.Queue(maxsize=2)
    print("maxsize:", queue.maxsize)
    _, received = await asyncio.gather(producer(queue, ["a", "b", "c", "d", "e"]), consumer(queue))
    print("received:", received)
    full = asyncio.Queue(maxsize=1)
    full.put_nowait("x")
    print("full:", full.full())
    try:
        full.put_nowait("y")
    except asyncio.QueueFull:
        print("QueueFull")


asyncio.run(main())
