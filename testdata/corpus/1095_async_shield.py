"""asyncio.shield keeps a critical save running even when the caller times out."""
import asyncio

saved = []


async def save_to_disk(doc: str) -> str:
    await asyncio.sleep(0.03)
    saved.append(doc)
    return f"{doc} saved"


async def autosave(doc: str, timeout: float, shielded: bool):
    work = asyncio.create_task(save_to_disk(doc))
    awaitable = asyncio.shield(work) if shielded else work
    try:
        return await asyncio.wait_for(awaitable, timeout)
    except TimeoutError:
        print(f"{doc}: caller gave up after {timeout}s (shielded={shielded})")
        return work


async def main():
    first = await autosave("draft-1", 0.01, shielded=True)
    second = await autosave("draft-2", 0.01, shielded=False)
    print("cancelled?", first.cancelled(), second.cancelled())
    await asyncio.sleep(0.04)
    print("saved:", saved)
    print("shielded task result:", first.result())
    print(await autosave("draft-3", 0.1, shielded=True))


asyncio.run(main())
