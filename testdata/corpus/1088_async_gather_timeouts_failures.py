"""Each call gets its own timeout via wait_for; gather collects results, errors and timeouts."""
import asyncio

BACKENDS = {"alpha": (0.01, "ok"), "beta": (1, "ok"), "gamma": (0.01, "error"), "delta": (0.02, "ok")}


async def call_backend(name: str) -> str:
    delay, outcome = BACKENDS[name]
    await asyncio.sleep(delay)
    if outcome == "error":
        raise RuntimeError(f"{name} returned 500")
    return f"{name}: 42"


async def guarded(name: str, timeout: float = 0.05):
    try:
        return await asyncio.wait_for(call_backend(name), timeout)
    except TimeoutError:
        return f"{name}: timeout"


async def main():
    results = await asyncio.gather(*(guarded(n) for n in BACKENDS), return_exceptions=True)
    summary = {"ok": [], "timeout": [], "error": []}
    for name, res in zip(BACKENDS, results):
        if isinstance(res, Exception):
            summary["error"].append(f"{name} ({res})")
        elif res.endswith("timeout"):
            summary["timeout"].append(name)
        else:
            summary["ok"].append(res)
    for key, values in summary.items():
        print(f"{key:8} {values}")
    try:
        await asyncio.gather(guarded("beta", 0.01), guarded("gamma"))
    except RuntimeError as e:
        print("without return_exceptions:", e)


asyncio.run(main())
