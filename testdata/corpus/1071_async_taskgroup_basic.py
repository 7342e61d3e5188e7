"""asyncio.TaskGroup waits for every task it started (Python 3.11)."""
import asyncio


async def compute(name: str, n: int, delay: float) -> int:
    await asyncio.sleep(delay)
    result = sum(i * i for i in range(n))
    print(f"{name} finished")
    return result


async def main():
    async with asyncio.TaskGroup() as tg:
        small = tg.create_task(compute("small", 10, 0.03))
        medium = tg.create_task(compute("medium", 100, 0.01))
        large = tg.create_task(compute("large", 1000, 0.02))
        print("inside the group; tasks started:", small.done(), medium.done(), large.done())
    print("after the group every task is done:", all(t.done() for t in (small, medium, large)))
    print(small.result(), medium.result(), large.result())

    results = {}
    async with asyncio.TaskGroup() as tg:
        for n in (3, 4, 5):
            results[n] = tg.create_task(compute(f"sum{n}", n, 0.01 * (6 - n)))
    print({n: t.result() for n, t in results.items()})

    async with asyncio.TaskGroup():
        pass
    print("an empty group exits at once")


asyncio.run(main())
