"""asyncio.wait with FIRST_COMPLETED: react to whichever mirror answers first."""
import asyncio


async def download(mirror: str, delay: float) -> str:
    try:
        await asyncio.sleep(delay)
        return f"data from {mirror}"
    except asyncio.CancelledError:
        print(f"cancelled {mirror}")
        raise


async def main():
    mirrors = {"eu": 0.2, "us": 0.01, "asia": 0.1}
    tasks = [asyncio.create_task(download(m, d), name=m) for m, d in mirrors.items()]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    winner = done.pop()
    print("winner:", winner.get_name(), "->", winner.result())
    print("still pending:", sorted(t.get_name() for t in pending))
    for t in sorted(pending, key=lambda t: t.get_name()):
        t.cancel()
    await asyncio.wait(pending)
    print("cancelled flags:", {t.get_name(): t.cancelled() for t in tasks})

    tasks = [asyncio.create_task(download(m, d), name=m) for m, d in [("a", 0.02), ("b", 0.01)]]
    done, pending = await asyncio.wait(tasks, timeout=0.001)
    print(len(done), "done,", len(pending), "pending after a short timeout")
    done, pending = await asyncio.wait(tasks)
    print(sorted(t.result() for t in done), len(pending))


asyncio.run(main())
