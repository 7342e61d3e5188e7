"""Telling coroutine functions, coroutines, async generators and awaitables apart."""
import asyncio
import inspect


async def fetch():
    return 1


async def stream():
    yield 1


def plain():
    return 1


class Awaitable:
    def __await__(self):
        yield from asyncio.sleep(0).__await__()
        return "custom awaitable result"


async def main():
    coro = fetch()
    agen = stream()
    print(inspect.iscoroutinefunction(fetch), inspect.iscoroutinefunction(plain), inspect.iscoroutinefunction(stream))
    print(inspect.isasyncgenfunction(stream), inspect.isasyncgen(agen), inspect.iscoroutine(coro))
    print(asyncio.iscoroutine(coro), asyncio.iscoroutine(plain()), inspect.isawaitable(coro), inspect.isawaitable(Awaitable()))
    print(type(coro).__name__, type(agen).__name__, coro.__name__, coro.__qualname__)
    print(inspect.getcoroutinestate(coro))
    print(await coro, inspect.getcoroutinestate(coro))
    try:
        await coro
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(await Awaitable())
    unused = fetch()
    unused.close()
    print("closed without awaiting:", inspect.getcoroutinestate(unused))
    try:
        await asyncio.gather(plain())
    except TypeError as e:
        print("TypeError:", e)


asyncio.run(main())
