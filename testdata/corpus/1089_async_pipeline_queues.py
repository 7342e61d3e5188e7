"""A three-stage async pipeline connected by queues, stopped with sentinels."""
import asyncio

DONE = object()


async def read_stage(out_q: asyncio.Queue, lines):
    for line in lines:
        await out_q.put(line)
    await out_q.put(DONE)


async def parse_stage(in_q: asyncio.Queue, out_q: asyncio.Queue):
    while (line := await in_q.get()) is not DONE:
        name, _, qty = line.partition(":")
        if qty.strip().isdigit():
            await out_q.put((name.strip(), int(qty)))
        else:
            print(f"parse: skipping {line!r}")
    await out_q.put(DONE)


async def total_stage(in_q: asyncio.Queue) -> dict:
    totals = {}
    while (item := await in_q.get()) is not DONE:
        name, qty = item
        totals[name] = totals.get(name, 0) + qty
    return totals


async def main():
    lines = ["apple: 3", "pear: 2", "apple: 5", "bad line", "kiwi: x", "pear: 10"]
    q1, q2 = asyncio.Queue(maxsize=1), asyncio.Queue(maxsize=1)
    _, _, totals = await asyncio.gather(read_stage(q1, lines), parse_stage(q1, q2), total_stage(q2))
    print(totals)
    print("queues empty:", q1.empty(), q2.empty())
    print(max(totals, key=totals.get), sum(totals.values()))


asyncio.run(main())
