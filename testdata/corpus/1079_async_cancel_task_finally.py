"""Cancelling a task: CancelledError is raised at its await, finally blocks still run."""
import asyncio


async def stream_logs(name: str, lines: list):
    try:
        for i in range(100):
            lines.append(f"{name}:{i}")
            await asyncio.sleep(0.03)
    except asyncio.CancelledError:
        print(f"{name}: cancellation requested after {len(lines)} lines")
        raise
    finally:
        print(f"{name}: connection closed")


async def main():
    lines = []
    task = asyncio.create_task(stream_logs("tail", lines))
    await asyncio.sleep(0.045)
    print("cancel() returned", task.cancel())
    try:
        await task
    except asyncio.CancelledError:
        print("awaiting a cancelled task raises CancelledError")
    print("cancelled:", task.cancelled(), "| done:", task.done(), "| lines:", lines)
    print("cancel again:", task.cancel())
    try:
        task.result()
    except asyncio.CancelledError:
        print("result() raises CancelledError too")
    print(issubclass(asyncio.CancelledError, Exception), issubclass(asyncio.CancelledError, BaseException))

    finished = asyncio.create_task(asyncio.sleep(0, result=7))
    await finished
    print("cancel on a finished task:", finished.cancel(), finished.result())


asyncio.run(main())
