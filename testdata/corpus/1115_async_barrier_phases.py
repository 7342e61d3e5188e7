"""asyncio.Barrier (3.11) keeps workers in lock-step between phases."""
import asyncio

log = []


async def worker(name: str, barrier: asyncio.Barrier, work: dict):
    for phase in ("load", "compute", "save"):
        for _ in range(work[phase]):
            await asyncio.sleep(0)
        log.append(f"{name}:{phase}")
        position = await barrier.wait()
        if position == 0:
            log.append(f"-- all finished {phase} --")


async def main():
    barrier = asyncio.Barrier(3)
    print("parties:", barrier.parties, "| waiting:", barrier.n_waiting)
    await asyncio.gather(
        worker("w1", barrier, {"load": 1, "compute": 3, "save": 0}),
        worker("w2", barrier, {"load": 2, "compute": 0, "save": 1}),
        worker("w3", barrier, {"load": 0, "compute": 1, "save": 2}),
    )
    phases = [line for line in log if line.startswith("--")]
    print(phases)
    order = [line.split(":")[1] for line in log if not line.startswith("--")]
    print("phases never overlap:", order == sorted(order, key=["load", "compute", "save"].index))
    print("broken:", barrier.broken)


asyncio.run(main())
