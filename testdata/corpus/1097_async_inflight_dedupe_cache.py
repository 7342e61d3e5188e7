"""Concurrent requests for the same key share one in-flight task instead of refetching."""
import asyncio


class Loader:
    def __init__(self):
        self.cache: dict[str, asyncio.Task] = {}
        self.backend_calls = []

    async def _fetch(self, key: str) -> str:
        self.backend_calls.append(key)
        await asyncio.sleep(0.01)
        if key.startswith("bad"):
            raise KeyError(key)
        return key.upper()

    async def get(self, key: str) -> str:
        if key not in self.cache:
            self.cache[key] = asyncio.create_task(self._fetch(key))
        try:
            return await self.cache[key]
        except KeyError:
            self.cache.pop(key, None)
            raise


async def main():
    loader = Loader()
    keys = ["user:1", "user:2", "user:1", "user:1", "user:3", "user:2"]
    values = await asyncio.gather(*(loader.get(k) for k in keys))
    print(values)
    print("backend calls:", loader.backend_calls)
    print(await loader.get("user:3"), "| calls now:", len(loader.backend_calls))
    results = await asyncio.gather(loader.get("bad:9"), loader.get("bad:9"), return_exceptions=True)
    print([repr(r) for r in results])
    print("bad key not cached:", "bad:9" not in loader.cache, "| calls:", loader.backend_calls[-1:])


asyncio.run(main())
