"""Two coroutines hand control back and forth with await asyncio.sleep(0)."""
import asyncio

rally = []


async def player(name: str, hits: int):
    for i in range(1, hits + 1):
        rally.append(name)
        print(f"{name:>4} hit {i}")
        await asyncio.sleep(0)
    print(f"{name} stops")


async def counter(label: str, n: int):
    total = 0
    for i in range(n):
        total += i
        await asyncio.sleep(0)
    return label, total


async def main():
    await asyncio.gather(player("ping", 3), player("pong", 3))
    print("rally:", "-".join(rally))
    rally.clear()
    await asyncio.gather(player("a", 1), player("b", 3), player("c", 2))
    print("three players:", "".join(rally))
    print(await asyncio.gather(counter("x", 4), counter("y", 10)))


asyncio.run(main())
