"""Without return_exceptions, the first exception propagates out of gather."""
import asyncio

progress = []


async def step(name, delay, fail=False):
    await asyncio.sleep(delay)
    if fail:
        raise RuntimeError(f"{name} crashed")
    progress.append(name)
    return name.upper()


async def main():
    try:
        await asyncio.gather(step("a", 0.01), step("b", 0.02, fail=True), step("c", 0.06))
    except RuntimeError as e:
        print("gather raised:", e)
    print("progress right after the failure:", progress)
    await asyncio.sleep(0.06)
    print("the other awaitables kept running:", progress)

    progress.clear()
    try:
        await asyncio.gather(step("x", 0.02, fail=True), step("y", 0.01, fail=True))
    except RuntimeError as e:
        print("first failure wins:", e)

    tasks = [asyncio.create_task(step(n, 0.005 * i)) for i, n in enumerate("pqr", 1)]
    print(await asyncio.gather(*tasks), [t.done() for t in tasks])


asyncio.run(main())
