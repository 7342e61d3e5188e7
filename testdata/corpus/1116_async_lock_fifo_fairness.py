"""Waiters on an asyncio.Lock acquire it in the order they asked (FIFO)."""
import asyncio

timeline = []


async def use_printer(user: str, pages: int, lock: asyncio.Lock):
    timeline.append(f"{user} waits")
    async with lock:
        timeline.append(f"{user} prints {pages}p")
        for _ in range(pages):
            await asyncio.sleep(0)
    timeline.append(f"{user} leaves")


async def main():
    lock = asyncio.Lock()
    jobs = [("ann", 3), ("ben", 1), ("cy", 2), ("dee", 1)]
    await asyncio.gather(*(use_printer(u, p, lock) for u, p in jobs))
    for line in timeline:
        print(line)
    print_order = [line.split()[0] for line in timeline if "prints" in line]
    print("print order:", print_order)
    print("lock free:", not lock.locked())


asyncio.run(main())
