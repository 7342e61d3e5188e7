"""Serve fresh data when the backend is fast enough, stale cached data when it times out."""
import asyncio

cache = {"weather:paris": "18C (cached)", "weather:oslo": "3C (cached)"}
LATENCY = {"paris": 0.01, "oslo": 0.08, "rome": 1, "lima": 0.01}


async def backend(city: str) -> str:
    await asyncio.sleep(LATENCY[city])
    return f"{city} {len(city) * 5}C (fresh)"


async def weather(city: str, timeout: float = 0.04) -> str:
    key = f"weather:{city}"
    try:
        value = await asyncio.wait_for(backend(city), timeout)
    except TimeoutError:
        if key in cache:
            return cache[key]
        raise LookupError(f"no data for {city}: backend timed out and nothing cached")
    cache[key] = value
    return value


async def main():
    results = await asyncio.gather(*(weather(c) for c in LATENCY), return_exceptions=True)
    for city, res in zip(LATENCY, results):
        print(f"{city:6} -> {res}")
    print(sorted(cache))
    print(await weather("oslo", timeout=1))


asyncio.run(main())
