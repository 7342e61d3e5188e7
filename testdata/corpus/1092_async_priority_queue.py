"""asyncio.PriorityQueue serves urgent tickets first, FIFO among equal priorities."""
import asyncio
from dataclasses import dataclass, field
from itertools import count

_seq = count()


@dataclass(order=True)
class Ticket:
    priority: int
    seq: int = field(default_factory=lambda: next(_seq))
    title: str = field(default="", compare=False)


async def support_agent(name: str, queue: asyncio.PriorityQueue, handled: list):
    while True:
        ticket = await queue.get()
        handled.append((name, ticket.priority, ticket.title))
        await asyncio.sleep(0.001)
        queue.task_done()


async def main():
    queue = asyncio.PriorityQueue()
    for prio, title in [(3, "typo on page"), (1, "site down"), (2, "slow login"), (1, "payments failing"), (3, "feature idea")]:
        queue.put_nowait(Ticket(prio, title=title))
    handled = []
    agent = asyncio.create_task(support_agent("agent", queue, handled))
    await queue.join()
    agent.cancel()
    for _, prio, title in handled:
        print(f"P{prio} {title}")
    plain = asyncio.PriorityQueue()
    for item in [(2, "b"), (1, "z"), (2, "a"), (0, "x")]:
        await plain.put(item)
    print([plain.get_nowait() for _ in range(plain.qsize())])
    lifo = asyncio.LifoQueue()
    for n in range(4):
        lifo.put_nowait(n)
    print([await lifo.get() for _ in range(4)])


asyncio.run(main())
