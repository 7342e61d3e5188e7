"""One producer, three consumers: the producer sends one sentinel per consumer to stop them."""
import asyncio

NUM_CONSUMERS = 3


async def producer(queue: asyncio.Queue, orders):
    for order in orders:
        await queue.put(order)
    for _ in range(NUM_CONSUMERS):
        await queue.put(None)


async def consumer(cid: int, queue: asyncio.Queue, totals: dict) -> int:
    handled = 0
    while True:
        order = await queue.get()
        if order is None:
            return handled
        customer, amount = order
        await asyncio.sleep(0.001 * (cid + 1))
        totals[customer] = round(totals.get(customer, 0) + amount, 2)
        handled += 1


async def main():
    orders = [("acme", 120.5), ("globex", 80.0), ("acme", 19.5), ("initech", 42.25), ("globex", 7.75), ("acme", 10.0)]
    queue = asyncio.Queue()
    totals = {}
    counts = await asyncio.gather(producer(queue, orders), *(consumer(i, queue, totals) for i in range(NUM_CONSUMERS)))
    handled = counts[1:]
    print("orders handled:", sum(handled), "| every consumer stopped:", len(handled) == NUM_CONSUMERS)
    for customer in sorted(totals):
        print(f"{customer:8} {totals[customer]:8.2f}")
    print("grand total:", sum(totals.values()), "| queue empty:", queue.empty())


asyncio.run(main())
