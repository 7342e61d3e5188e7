"""Failures inside a TaskGroup arrive as an ExceptionGroup, handled with except*."""
import asyncio


async def validate(field: str, value, delay: float):
    await asyncio.sleep(delay)
    if value is None:
        raise KeyError(field)
    if not isinstance(value, int):
        raise TypeError(f"{field} must be int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{field} must be >= 0")
    return value


async def check(record: dict) -> None:
    try:
        async with asyncio.TaskGroup() as tg:
            for i, (field, value) in enumerate(record.items()):
                tg.create_task(validate(field, value, 0.01 + 0.05 * i))
        print("record ok:", record)
    except* (ValueError, TypeError) as group:
        print(f"{len(group.exceptions)} bad value(s):", [str(e) for e in group.exceptions])
    except* KeyError as group:
        print("missing:", [e.args[0] for e in group.exceptions])


async def main():
    await check({"age": 30, "height": 180})
    await check({"age": -1, "height": "tall"})
    await check({"age": None, "height": 170})
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(validate("a", -5, 0))
            tg.create_task(validate("b", "x", 0))
    except ExceptionGroup as eg:
        print(type(eg).__name__, "|", eg)
        print([type(e).__name__ for e in eg.exceptions])
        matched, rest = eg.split(ValueError)
        print(len(matched.exceptions), len(rest.exceptions))


asyncio.run(main())
