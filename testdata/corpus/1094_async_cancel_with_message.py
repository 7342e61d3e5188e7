"""Cancelling with a message, and a task that handles cancellation and returns instead."""
import asyncio


async def download(name: str, progress: list):
    try:
        for chunk in range(10):
            progress.append(chunk)
            await asyncio.sleep(0.03)
    except asyncio.CancelledError as e:
        print(f"{name}: cancelled with args {e.args}")
        raise


async def polite_worker(results: list):
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        results.append("saved partial work")
        return "stopped cleanly"


async def main():
    progress = []
    task = asyncio.create_task(download("iso", progress))
    await asyncio.sleep(0.045)
    task.cancel("user pressed stop")
    try:
        await task
    except asyncio.CancelledError as e:
        print("caller sees:", e.args, "| chunks:", progress)

    results = []
    worker = asyncio.create_task(polite_worker(results))
    await asyncio.sleep(0)
    worker.cancel()
    value = await worker
    print("worker returned:", value, "| cancelled():", worker.cancelled(), "|", results)

    sleeper = asyncio.create_task(asyncio.sleep(1))
    await asyncio.sleep(0)
    sleeper.cancel()
    done, _ = await asyncio.wait([sleeper])
    print("plain cancel:", sleeper.cancelled(), len(done))


asyncio.run(main())
