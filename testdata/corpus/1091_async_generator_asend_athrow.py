"""asend() and athrow() on an async generator used as an async accumulator."""
import asyncio


class Reset(Exception):
    pass


async def accumulate(start=0):
    total = start
    while True:
        try:
            value = yield total
            await asyncio.sleep(0)
            if value is not None:
                total += value
        except Reset:
            print("  reset requested")
            total = start


async def main():
    acc = accumulate(100)
    print(await acc.asend(None))
    print(await acc.asend(5))
    print(await acc.asend(20))
    print(await acc.athrow(Reset))
    print(await acc.asend(7))
    try:
        await acc.athrow(ValueError("fatal"))
    except ValueError as e:
        print("propagated:", e)
    try:
        await acc.asend(1)
    except StopAsyncIteration:
        print("generator finished: StopAsyncIteration")
    fresh = accumulate()
    try:
        await fresh.asend(3)
    except TypeError as e:
        print("TypeError:", e)


asyncio.run(main())
