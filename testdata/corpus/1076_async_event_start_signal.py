"""asyncio.Event as a starting gun for several waiting runners."""
import asyncio


async def runner(name: str, start: asyncio.Event, results: list):
    print(f"{name} ready")
    await start.wait()
    results.append(name)
    print(f"{name} running")


async def main():
    start = asyncio.Event()
    results = []
    tasks = [asyncio.create_task(runner(n, start, results)) for n in ("ann", "bob", "cat")]
    await asyncio.sleep(0.01)
    print("is_set before:", start.is_set(), "| results:", results)
    start.set()
    print("set! results so far:", results)
    await asyncio.gather(*tasks)
    print("finish order:", results)
    start.clear()
    print("cleared:", start.is_set())

    done = asyncio.Event()

    async def loader():
        await asyncio.sleep(0.01)
        print("config loaded")
        done.set()

    asyncio.create_task(loader())
    await done.wait()
    print("main continues after the event")
    await done.wait()
    print("waiting on a set event returns immediately")
    try:
        await asyncio.wait_for(start.wait(), timeout=0.01)
    except TimeoutError:
        print("nobody set the cleared event")


asyncio.run(main())
