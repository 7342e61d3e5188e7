"""When one task in a TaskGroup fails, its still-running siblings are cancelled."""
import asyncio

status = {}


async def job(name: str, delay: float, fail: bool = False):
    status[name] = "running"
    try:
        await asyncio.sleep(delay)
        if fail:
            status[name] = "failed"
            raise RuntimeError(f"{name} broke")
        status[name] = "done"
        return name
    except asyncio.CancelledError:
        status[name] = "cancelled"
        print(f"{name} was cancelled, cleaning up")
        raise


async def main():
    try:
        async with asyncio.TaskGroup() as tg:
            quick = tg.create_task(job("quick", 0.01))
            tg.create_task(job("broken", 0.02, fail=True))
            slow = tg.create_task(job("slow", 0.2))
            slower = tg.create_task(job("slower", 0.3))
    except* RuntimeError as eg:
        print("group failed:", [str(e) for e in eg.exceptions])
    print(status)
    print("quick:", quick.result(), "| slow cancelled:", slow.cancelled(), "| slower cancelled:", slower.cancelled())

    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(job("other", 0.2))
            await asyncio.sleep(0.01)
            raise LookupError("body of the async with failed")
    except* LookupError as eg:
        print("body error:", eg.exceptions[0], "| other:", status["other"])


asyncio.run(main())
