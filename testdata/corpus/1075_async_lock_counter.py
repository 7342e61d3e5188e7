"""A read-modify-write race between tasks, then the same code fixed with asyncio.Lock."""
import asyncio


class Account:
    def __init__(self):
        self.balance = 0
        self.lock = asyncio.Lock()

    async def deposit_unsafe(self, amount):
        current = self.balance
        await asyncio.sleep(0)  # another task runs here and reads the same balance
        self.balance = current + amount

    async def deposit_safe(self, amount):
        async with self.lock:
            current = self.balance
            await asyncio.sleep(0)
            self.balance = current + amount


async def main():
    acct = Account()
    await asyncio.gather(*(acct.deposit_unsafe(10) for _ in range(5)))
    print("without lock:", acct.balance)

    acct = Account()
    await asyncio.gather(*(acct.deposit_safe(10) for _ in range(5)))
    print("with lock:", acct.balance)

    lock = asyncio.Lock()
    print("locked?", lock.locked())
    async with lock:
        print("inside:", lock.locked())
    print("after:", lock.locked())
    try:
        lock.release()
    except RuntimeError as e:
        print("RuntimeError:", e)

    events = []

    async def critical(name):
        async with lock:
            events.append(f"{name}+")
            await asyncio.sleep(0.005)
            events.append(f"{name}-")

    await asyncio.gather(critical("a"), critical("b"), critical("c"))
    print(" ".join(events))


asyncio.run(main())
