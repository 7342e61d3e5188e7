"""asyncio.wait_for cancels a slow call and raises TimeoutError."""
import asyncio


async def slow_query(sql: str, delay: float) -> list:
    try:
        await asyncio.sleep(delay)
        return [f"row for {sql}"]
    except asyncio.CancelledError:
        print(f"  query {sql!r} cancelled")
        raise
    finally:
        print(f"  query {sql!r} cleaned up")


async def query_with_timeout(sql, delay, timeout):
    try:
        rows = await asyncio.wait_for(slow_query(sql, delay), timeout=timeout)
        print(f"{sql}: {rows}")
    except asyncio.TimeoutError as e:
        print(f"{sql}: timed out after {timeout}s ({type(e).__name__}, same as builtin: {asyncio.TimeoutError is TimeoutError})")


async def main():
    await query_with_timeout("fast", 0.01, 1)
    await query_with_timeout("slow", 1, 0.02)
    print(await asyncio.wait_for(asyncio.sleep(0, result="no timeout"), timeout=None))
    try:
        await asyncio.wait_for(asyncio.sleep(1), timeout=0)
    except TimeoutError:
        print("timeout=0 fails immediately for a coroutine that must wait")


asyncio.run(main())
