"""Bound concurrency of a fan-out with asyncio.Semaphore and track the peak."""
import asyncio

active = 0
peak = 0
order = []


async def fetch(url: str, sem: asyncio.Semaphore) -> int:
    global active, peak
    async with sem:
        active += 1
        peak = max(peak, active)
        order.append(f"start {url}")
        await asyncio.sleep(0.01)
        active -= 1
        order.append(f"end {url}")
        return len(url)


async def main():
    sem = asyncio.Semaphore(3)
    urls = [f"https://example.com/page/{i}" for i in range(8)]
    sizes = await asyncio.gather(*(fetch(u, sem) for u in urls))
    print("sizes:", sizes)
    print("peak concurrency:", peak)
    print("first four events:", [e.split()[0] for e in order[:4]])
    print("starts:", sum(e.startswith("start") for e in order), "ends:", sum(e.startswith("end") for e in order))
    print("semaphore free again:", not sem.locked())

    one = asyncio.Semaphore(1)
    await one.acquire()
    print("locked after acquire:", one.locked())
    one.release()
    print("locked after release:", one.locked())
    bounded = asyncio.BoundedSemaphore(1)
    try:
        bounded.release()
    except ValueError as e:
        print("ValueError:", e)


asyncio.run(main())
