# A failed lookup inside one of the gathered coroutines ends asyncio.run with that error.
import asyncio

REGIONS = {"eu-west": 12, "us-east": 30}


async def latency(region: str) -> int:
    await asyncio.sleep(0.001)
    return REGIONS[region]


async def report(regions):
    values = await asyncio.gather(*(latency(r) for r in regions))
    for region, ms in zip(regions, values):
        print(f"{region}: {ms} ms")
    return max(values)


async def main():
    print("worst:", await report(["eu-west", "us-east"]))
    print("worst:", await report(["eu-west", "ap-south"]))
    print("unreachable")


asyncio.run(main())
