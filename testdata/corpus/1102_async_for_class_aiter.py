"""A class implementing __aiter__/__anext__ to stream sensor readings with async for."""
import asyncio


class SensorStream:
    def __init__(self, name: str, readings: list[float], limit: float):
        self.name = name
        self.readings = readings
        self.limit = limit
        self.index = 0

    def __aiter__(self):
        return self

    async def __anext__(self) -> tuple[int, float]:
        if self.index >= len(self.readings):
            raise StopAsyncIteration
        await asyncio.sleep(0)
        value = self.readings[self.index]
        self.index += 1
        if value > self.limit:
            print(f"  {self.name}: reading {value} over limit")
        return self.index, value


async def average(stream) -> float:
    values = [v async for _, v in stream]
    return round(sum(values) / len(values), 2) if values else 0.0


async def main():
    async for i, value in SensorStream("temp", [21.5, 22.0, 35.5, 21.0], limit=30):
        print(i, value)
    avgs = await asyncio.gather(average(SensorStream("a", [1, 2, 3], 10)), average(SensorStream("b", [10, 20], 15)))
    print("averages:", avgs)
    print("empty:", await average(SensorStream("none", [], 0)))
    s = SensorStream("manual", [5.0], 1)
    print(await anext(s))
    print(await anext(s, "no more"))
    try:
        await s.__anext__()
    except StopAsyncIteration:
        print("StopAsyncIteration")


asyncio.run(main())
