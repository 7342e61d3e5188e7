"""A work queue drained by several workers; queue.join() waits for every task_done()."""
import asyncio


async def worker(name: str, queue: asyncio.Queue, results: dict):
    while True:
        job = await queue.get()
        try:
            await asyncio.sleep(0.005 * job)
            results[job] = f"{job * job} by {name}"
        finally:
            queue.task_done()


async def main():
    queue: asyncio.Queue[int] = asyncio.Queue()
    for job in [3, 1, 4, 1, 5, 2]:
        queue.put_nowait(job)
    print("queued:", queue.qsize())
    results = {}
    workers = [asyncio.create_task(worker(f"w{i}", queue, results)) for i in range(3)]
    await queue.join()
    print("all jobs done, queue empty:", queue.empty())
    for job in sorted(results):
        print(job, "->", results[job].split(" by ")[0])
    for w in workers:
        w.cancel()
    outcome = await asyncio.gather(*workers, return_exceptions=True)
    print([type(o).__name__ for o in outcome])
    try:
        queue.get_nowait()
    except asyncio.QueueEmpty:
        print("QueueEmpty raised by get_nowait")


asyncio.run(main())
