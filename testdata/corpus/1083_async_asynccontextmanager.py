"""contextlib.asynccontextmanager for sessions and transactions."""
import asyncio
from contextlib import asynccontextmanager

events = []


@asynccontextmanager
async def session(user: str):
    await asyncio.sleep(0.001)
    events.append(f"open {user}")
    try:
        yield {"user": user, "queries": 0}
    finally:
        await asyncio.sleep(0.001)
        events.append(f"close {user}")


@asynccontextmanager
async def transaction(sess):
    events.append("begin")
    try:
        yield
    except ValueError as e:
        events.append(f"rollback: {e}")
    else:
        events.append(f"commit ({sess['queries']} queries)")


async def run(user, amounts):
    async with session(user) as s, transaction(s):
        for a in amounts:
            if a < 0:
                raise ValueError(f"negative amount {a}")
            s["queries"] += 1
            await asyncio.sleep(0)
    return s["queries"]


async def main():
    print(await run("ana", [10, 20, 30]))
    print(await run("bo", [5, -1, 7]))
    print("\n".join(events))
    events.clear()
    try:
        async with session("cy"):
            raise KeyError("cy")
    except KeyError as e:
        print("KeyError passed through:", e, events)


asyncio.run(main())
