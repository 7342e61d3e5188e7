"""Task names, states, results, exceptions and done-callbacks."""
import asyncio


async def job(n: int) -> int:
    await asyncio.sleep(0.01 * n)
    if n == 3:
        raise ArithmeticError(f"job {n} overflowed")
    return n * 10


def on_done(task: asyncio.Task, log: list):
    if task.cancelled():
        log.append(f"{task.get_name()}: cancelled")
    elif task.exception() is not None:
        log.append(f"{task.get_name()}: error {task.exception()}")
    else:
        log.append(f"{task.get_name()}: result {task.result()}")


async def main():
    log = []
    tasks = []
    for n in (1, 2, 3, 20):
        t = asyncio.create_task(job(n), name=f"job-{n}")
        t.add_done_callback(lambda t, log=log: on_done(t, log))
        tasks.append(t)
    print("states:", [t.done() for t in tasks])
    tasks[-1].cancel()
    await asyncio.wait(tasks)
    print("\n".join(log))
    t = tasks[0]
    print(t.get_name(), t.done(), t.cancelled(), t.result(), t.exception())
    t.set_name("renamed")
    print(t.get_name())
    pending = asyncio.create_task(job(1))
    try:
        pending.result()
    except asyncio.InvalidStateError as e:
        print("InvalidStateError:", e)
    await pending
    me = asyncio.current_task()
    print("current task is a Task:", isinstance(me, asyncio.Task), me.get_name() == "Task-1")


asyncio.run(main())
