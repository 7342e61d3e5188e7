"""An async retry decorator with exponential backoff (tiny sleeps) for flaky calls."""
import asyncio
import functools


def retry(attempts=4, base_delay=0.001, exceptions=(ConnectionError,)):
    def decorate(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            delay = base_delay
            for attempt in range(1, attempts + 1):
                try:
                    return await fn(*args, **kwargs)
                except exceptions as e:
                    if attempt == attempts:
                        raise
                    print(f"  attempt {attempt} failed ({e}); waiting {delay * 1000:.0f} ms")
                    await asyncio.sleep(delay)
                    delay *= 2
        return wrapper
    return decorate


calls = {"orders": 0, "stock": 0}


@retry()
async def fetch(resource: str, fail_times: int):
    """Fetch a resource that fails the first `fail_times` calls."""
    calls[resource] += 1
    await asyncio.sleep(0)
    if calls[resource] <= fail_times:
        raise ConnectionError(f"{resource} reset")
    return f"{resource} payload after {calls[resource]} calls"


@retry(attempts=2)
async def validate(value):
    raise ValueError(f"bad value {value}")


async def main():
    print(await fetch("orders", 2))
    try:
        await fetch("stock", 10)
    except ConnectionError as e:
        print("gave up:", e, "| calls:", calls["stock"])
    try:
        await validate(3)
    except ValueError as e:
        print("not retried:", e)
    print(fetch.__name__, fetch.__doc__, asyncio.iscoroutinefunction(fetch))


asyncio.run(main())
