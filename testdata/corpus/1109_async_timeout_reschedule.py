"""Extending an asyncio.timeout deadline while progress is being made."""
import asyncio


async def upload(chunks: int, per_chunk: float, progress: list):
    for i in range(chunks):
        await asyncio.sleep(per_chunk)
        progress.append(i)


async def upload_with_idle_timeout(chunks, per_chunk, idle):
    loop = asyncio.get_running_loop()
    progress = []
    try:
        async with asyncio.timeout(idle) as cm:
            async def watched():
                for i in range(chunks):
                    await upload(1, per_chunk, progress)
                    cm.reschedule(loop.time() + idle)
            await watched()
        return f"uploaded {len(progress)} chunks"
    except TimeoutError:
        return f"stalled after {len(progress)} chunks"


async def main():
    print(await upload_with_idle_timeout(5, 0.01, 0.1))
    print(await upload_with_idle_timeout(3, 0.2, 0.02))
    async with asyncio.timeout(10) as cm:
        cm.reschedule(None)
        print("deadline removed:", cm.when())
    try:
        async with asyncio.timeout_at(asyncio.get_running_loop().time() + 0.01):
            await asyncio.sleep(1)
    except TimeoutError:
        print("timeout_at expired")


asyncio.run(main())
