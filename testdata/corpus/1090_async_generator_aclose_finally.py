"""Async generators run their finally blocks on aclose() and when async for breaks early."""
import asyncio
from contextlib import aclosing


async def subscribe(channel: str):
    print(f"subscribe {channel}")
    try:
        n = 0
        while True:
            n += 1
            await asyncio.sleep(0)
            yield f"{channel}#{n}"
    finally:
        await asyncio.sleep(0)
        print(f"unsubscribe {channel} after {n} messages")


async def main():
    async with aclosing(subscribe("news")) as messages:
        async for msg in messages:
            print("got", msg)
            if msg.endswith("#3"):
                break
        print("loop left; closing at the end of the async with")

    sub = subscribe("alerts")
    print(await anext(sub), await anext(sub))
    await sub.aclose()
    print("after aclose:", await anext(sub, None))

    fresh = subscribe("never-started")
    await fresh.aclose()
    print("aclose on an unstarted generator runs nothing")


asyncio.run(main())
