"""asyncio.run returns the coroutine's value and can be called again afterwards."""
import asyncio


async def add(a: int, b: int) -> int:
    await asyncio.sleep(0)
    return a + b


async def running_loop_check() -> str:
    loop = asyncio.get_running_loop()
    return f"loop running: {loop.is_running()}"


async def nested_calls(n: int) -> list:
    results = []
    for i in range(n):
        results.append(await add(i, await add(i, 1)))
    return results


print(asyncio.run(add(2, 3)))
print(asyncio.run(running_loop_check()))
print(asyncio.run(nested_calls(4)))
print(asyncio.run(asyncio.sleep(0, result="sleep can carry a result")))
try:
    asyncio.get_running_loop()
except RuntimeError as e:
    print("RuntimeError:", e)


async def fails():
    await asyncio.sleep(0)
    raise ValueError("raised inside asyncio.run")


try:
    asyncio.run(fails())
except ValueError as e:
    print("caught after run:", e)
print(asyncio.run(add(*asyncio.run(nested_calls(2)))))
