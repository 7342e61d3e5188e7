"""Chained async generators: source -> parse -> filter -> batch."""
import asyncio
import json

MESSAGES = ['{"level": "info", "msg": "boot"}', '{"level": "error", "msg": "disk"}', 'garbage',
            '{"level": "warn", "msg": "slow"}', '{"level": "error", "msg": "net"}', '{"level": "error", "msg": "oom"}']


async def source(lines):
    for line in lines:
        await asyncio.sleep(0)
        yield line


async def parse(agen):
    async for line in agen:
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            print(f"  dropped unparsable line {line!r}")


async def at_least(agen, level):
    order = ["info", "warn", "error"]
    async for event in agen:
        if order.index(event["level"]) >= order.index(level):
            yield event


async def batched(agen, size):
    batch = []
    async for item in agen:
        batch.append(item["msg"])
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


async def main():
    async for batch in batched(at_least(parse(source(MESSAGES)), "warn"), 2):
        print("alert batch:", batch)
    errors = [e["msg"] async for e in at_least(parse(source(MESSAGES)), "error")]
    print("errors:", errors)


asyncio.run(main())
