"""Awaiting coroutines one by one versus running them concurrently: the print order shows it."""
import asyncio


async def brew(drink: str, steps: int) -> str:
    for step in range(1, steps + 1):
        print(f"  {drink}: step {step}/{steps}")
        await asyncio.sleep(0)
    return f"{drink} ready"


async def main():
    print("sequential:")
    first = await brew("tea", 2)
    second = await brew("coffee", 3)
    print(first, "|", second)

    print("concurrent with gather:")
    print(await asyncio.gather(brew("tea", 2), brew("coffee", 3)))

    print("concurrent with tasks:")
    tea = asyncio.create_task(brew("tea", 2))
    coffee = asyncio.create_task(brew("coffee", 3))
    print("(tasks created)")
    print(await coffee, "|", await tea)

    print("a coroutine object does nothing until awaited:")
    pending = brew("juice", 1)
    print("created", type(pending).__name__)
    print(await pending)


asyncio.run(main())
