"""asyncio.wait(ALL_COMPLETED) then inspect each task's result or exception."""
import asyncio


async def check_service(name: str, delay: float, healthy: bool) -> str:
    await asyncio.sleep(delay)
    if not healthy:
        raise ConnectionError(f"{name} unreachable")
    return f"{name} healthy"


async def main():
    services = [("db", 0.02, True), ("cache", 0.01, False), ("queue", 0.03, True), ("search", 0.01, True)]
    tasks = {asyncio.create_task(check_service(*s), name=s[0]) for s in services}
    done, pending = await asyncio.wait(tasks, return_when=asyncio.ALL_COMPLETED)
    print(len(done), len(pending))
    report = {}
    for task in sorted(done, key=lambda t: t.get_name()):
        exc = task.exception()
        report[task.get_name()] = "DOWN: " + str(exc) if exc else task.result()
    for name, status in report.items():
        print(f"{name:7} {status}")
    failing = [t.get_name() for t in done if t.exception() is not None]
    print("failing:", failing)
    try:
        next(t for t in done if t.get_name() == "cache").result()
    except ConnectionError as e:
        print("result() re-raises:", e)


asyncio.run(main())
