"""An async generator streams rows; async for consumes them as they arrive."""
import asyncio


async def fetch_rows(table: str, batch: int = 2):
    data = {"users": ["ana", "bo", "cy", "dee", "eve"], "empty": []}
    rows = data[table]
    for start in range(0, len(rows), batch):
        await asyncio.sleep(0.001)
        print(f"  [fetched {table} {start}..{start + batch - 1}]")
        for row in rows[start:start + batch]:
            yield row


async def numbered(agen):
    n = 0
    async for item in agen:
        n += 1
        yield n, item


async def main():
    async for row in fetch_rows("users"):
        print("row", row)
    async for n, row in numbered(fetch_rows("users", batch=3)):
        if n > 2:
            break
        print(n, row)
    async for row in fetch_rows("empty"):
        print("never")
    gen = fetch_rows("users")
    print(type(gen).__name__, hasattr(gen, "__anext__"))
    print(await gen.__anext__(), await anext(gen))
    await gen.aclose()
    print(await anext(gen, "exhausted"))


asyncio.run(main())
