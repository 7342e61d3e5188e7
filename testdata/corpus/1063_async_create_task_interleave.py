"""Two tasks created with create_task take turns at every await asyncio.sleep(0)."""
import asyncio

log = []


async def worker(name: str, steps: int) -> str:
    for i in range(steps):
        log.append(f"{name}{i}")
        print(f"{name} step {i}")
        await asyncio.sleep(0)
    return f"{name} done"


async def main():
    t1 = asyncio.create_task(worker("A", 3))
    t2 = asyncio.create_task(worker("B", 2))
    print("tasks created, none has run yet:", log)
    await asyncio.sleep(0)
    print("after one yield:", log)
    r1 = await t1
    r2 = await t2
    print(r1, r2, t1.done(), t2.done())
    print("order:", " ".join(log))
    t3 = asyncio.create_task(worker("C", 1))
    print("awaiting t3 directly:", await t3)
    print("result again:", t3.result())


asyncio.run(main())
