"""Low-level futures: one task waits on a Future that another task resolves."""
import asyncio


async def resolver(fut: asyncio.Future, value, delay: float):
    await asyncio.sleep(delay)
    if isinstance(value, Exception):
        fut.set_exception(value)
    else:
        fut.set_result(value)


async def main():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    fut.add_done_callback(lambda f: print("callback: done =", f.done()))
    print("done before:", fut.done())
    asyncio.create_task(resolver(fut, {"token": "abc123"}, 0.005))
    print("awaited:", await fut)
    print("result again:", fut.result())
    try:
        fut.set_result("second")
    except asyncio.InvalidStateError as e:
        print("InvalidStateError:", e)

    bad = loop.create_future()
    asyncio.create_task(resolver(bad, PermissionError("token expired"), 0.005))
    try:
        await bad
    except PermissionError as e:
        print("PermissionError:", e, "| exception():", repr(bad.exception()))

    futures = [loop.create_future() for _ in range(3)]
    for i, f in enumerate(reversed(futures)):
        loop.call_later(0.01 * (i + 1), f.set_result, i)
    print(await asyncio.gather(*futures))
    cancelled = loop.create_future()
    cancelled.cancel()
    print("cancelled future:", cancelled.cancelled(), cancelled.done())


asyncio.run(main())
