"""Nested TaskGroups produce nested ExceptionGroups; except* matches at any depth."""
import asyncio


async def fail(kind, msg, turns):
    for _ in range(turns):
        await asyncio.sleep(0)
    raise kind(msg)


async def region(name: str, errors):
    async with asyncio.TaskGroup() as tg:
        for kind, msg, turns in errors:
            tg.create_task(fail(kind, f"{name}: {msg}", turns))


def describe(exc, depth=0):
    pad = "  " * depth
    if isinstance(exc, BaseExceptionGroup):
        print(f"{pad}{type(exc).__name__}({len(exc.exceptions)})")
        for sub in exc.exceptions:
            describe(sub, depth + 1)
    else:
        print(f"{pad}{type(exc).__name__}: {exc}")


async def main():
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(region("eu", [(ValueError, "bad price", 1), (KeyError, "sku", 1), (OSError, "late", 5)]))
            tg.create_task(region("us", [(ValueError, "bad qty", 2)]))
    except ExceptionGroup as eg:
        describe(eg)
        saved = eg
    try:
        raise saved
    except* ValueError as vg:
        print("values:", sorted(str(e) for g in vg.exceptions for e in g.exceptions))
    except* KeyError as kg:
        print("keys:", [str(e) for g in kg.exceptions for e in g.exceptions])
    flat = saved.subgroup(lambda e: isinstance(e, KeyError))
    describe(flat)


asyncio.run(main())
