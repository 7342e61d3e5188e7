"""asyncio.gather returns results in argument order, not completion order."""
import asyncio

finished = []


async def fetch_price(symbol: str, delay: float) -> tuple[str, float]:
    await asyncio.sleep(delay)
    finished.append(symbol)
    prices = {"AAPL": 189.5, "MSFT": 415.25, "GOOG": 141.0}
    return symbol, prices[symbol]


async def main():
    results = await asyncio.gather(
        fetch_price("AAPL", 0.03),
        fetch_price("MSFT", 0.01),
        fetch_price("GOOG", 0.02),
    )
    print("results:", results)
    print("finished order:", finished)
    total = sum(price for _, price in results)
    print(f"portfolio: {total:.2f}")
    empty = await asyncio.gather()
    print("gather of nothing:", empty)
    squares = await asyncio.gather(*(asyncio.sleep(0, result=n * n) for n in range(5)))
    print(squares)
    return len(results)


count = asyncio.run(main())
print("asyncio.run returned", count)
