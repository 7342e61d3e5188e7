"""asyncio.as_completed hands back results in the order they finish."""
import asyncio


async def resize(image: str, delay: float) -> str:
    await asyncio.sleep(delay)
    if image.endswith(".bmp"):
        raise ValueError(f"unsupported format: {image}")
    return image.replace(".", "_small.")


async def main():
    jobs = {"cat.png": 0.04, "dog.jpg": 0.01, "old.bmp": 0.02, "sky.gif": 0.03}
    coros = [resize(name, delay) for name, delay in jobs.items()]
    done_count = 0
    for next_done in asyncio.as_completed(coros):
        try:
            result = await next_done
        except ValueError as e:
            print("failed:", e)
            continue
        done_count += 1
        print(f"{done_count}. {result}")
    print("total ok:", done_count)

    try:
        for fut in asyncio.as_completed([resize("a.png", 0.01), resize("b.png", 1)], timeout=0.05):
            print("got", await fut)
    except TimeoutError:
        print("as_completed timed out waiting for the rest")


asyncio.run(main())
