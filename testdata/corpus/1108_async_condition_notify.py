"""asyncio.Condition: consumers wait until a shared buffer has enough items."""
import asyncio

buffer = []
served = []


async def consumer(name: str, need: int, cond: asyncio.Condition):
    async with cond:
        await cond.wait_for(lambda: len(buffer) >= need)
        taken = [buffer.pop(0) for _ in range(need)]
        served.append((name, taken))
        print(f"{name} took {taken}")


async def producer(cond: asyncio.Condition, items):
    for item in items:
        async with cond:
            buffer.append(item)
            print(f"produced {item}")
            cond.notify_all()
        await asyncio.sleep(0)


async def main():
    cond = asyncio.Condition()
    consumers = [asyncio.create_task(consumer("big", 3, cond)), asyncio.create_task(consumer("small", 1, cond))]
    await asyncio.sleep(0)
    await producer(cond, ["p1", "p2", "p3", "p4", "p5"])
    await asyncio.gather(*consumers)
    print("served:", served)
    print("left over:", buffer)
    try:
        cond.notify()
    except RuntimeError as e:
        print("RuntimeError:", e)


asyncio.run(main())
