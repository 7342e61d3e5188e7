"""The asyncio.timeout() context manager (Python 3.11) around a block of awaits."""
import asyncio


async def read_chunks(n: int, delay: float, out: list):
    for i in range(n):
        await asyncio.sleep(delay)
        out.append(i)


async def main():
    chunks = []
    try:
        async with asyncio.timeout(1):
            await read_chunks(3, 0.005, chunks)
        print("finished in time:", chunks)
    except TimeoutError:
        print("unexpected timeout")

    chunks = []
    try:
        async with asyncio.timeout(0.055) as cm:
            await read_chunks(100, 0.03, chunks)
    except TimeoutError:
        print("timed out; expired:", cm.expired(), "chunks read:", chunks)

    async with asyncio.timeout(None) as cm:
        await asyncio.sleep(0)
    print("no deadline:", cm.when(), cm.expired())

    try:
        async with asyncio.timeout(0.01):
            try:
                await asyncio.sleep(1)
            finally:
                print("cleanup inside the timed block runs")
    except TimeoutError as e:
        print("TimeoutError caught outside:", repr(e))


asyncio.run(main())
