"""Async comprehensions: async for inside list/set/dict comprehensions, and await in them."""
import asyncio


async def ticker(symbols):
    for i, s in enumerate(symbols):
        await asyncio.sleep(0)
        yield s, 100 + 7 * i


async def price(symbol: str) -> float:
    await asyncio.sleep(0.001)
    return {"AAA": 10.5, "BBB": 20.0, "CCC": 5.25}.get(symbol, 0.0)


async def main():
    symbols = ["AAA", "BBB", "CCC", "DDD"]
    volumes = [v async for _, v in ticker(symbols)]
    print(volumes)
    print({s: v async for s, v in ticker(symbols) if v > 105})
    print(sorted({s[0] async for s, _ in ticker(symbols)}))
    prices = [await price(s) for s in symbols]
    print(prices)
    valued = {s: await price(s) * v async for s, v in ticker(symbols) if await price(s)}
    print(valued)
    agen = (s.lower() async for s, _ in ticker(symbols))
    print(type(agen).__name__, [x async for x in agen])
    nested = [[await price(s) for s in pair] for pair in [("AAA", "BBB"), ("CCC",)]]
    print(nested)


asyncio.run(main())
