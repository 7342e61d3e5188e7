"""A fixed pool of workers processes indexed jobs; results are reassembled in input order."""
import asyncio


async def worker(wid: int, jobs: asyncio.Queue, results: list, counts: dict):
    while True:
        try:
            index, text = jobs.get_nowait()
        except asyncio.QueueEmpty:
            return
        await asyncio.sleep(0.001 * len(text))
        results[index] = text[::-1]
        counts[wid] = counts.get(wid, 0) + 1


async def main():
    texts = ["alpha", "be", "gamma-ray", "delta", "e", "zeta-function", "eta", "theta"]
    jobs = asyncio.Queue()
    for item in enumerate(texts):
        jobs.put_nowait(item)
    results = [None] * len(texts)
    counts = {}
    await asyncio.gather(*(worker(w, jobs, results, counts) for w in range(3)))
    print(results)
    print("jobs handled:", sum(counts.values()), "by", len(counts), "workers")
    print(all(r == t[::-1] for r, t in zip(results, texts)))


asyncio.run(main())
