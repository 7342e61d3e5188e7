"""A generator that catches exceptions thrown into it and keeps producing."""


class Skip(Exception):
    pass


def job_runner(jobs):
    results = []
    for job in jobs:
        try:
            command = yield job
            results.append((job, command or "done"))
        except Skip as e:
            results.append((job, f"skipped: {e}"))
            yield f"ack {job}"
        except ValueError:
            results.append((job, "invalid"))
    return results


runner = job_runner(["fetch", "resize", "upload", "notify"])
print(next(runner))
print(runner.send("fetched 3 files"))
print(runner.throw(Skip("no images")))
print(next(runner))
print(runner.throw(ValueError("bad")))
try:
    runner.send(None)
except StopIteration as stop:
    for job, outcome in stop.value:
        print(f"{job:7} -> {outcome}")

g = job_runner(["a"])
try:
    g.throw(Skip("before start"))
except Skip as e:
    print("unstarted generator re-raises:", e)
print(next(g, "finished"))
g = job_runner(["only"])
next(g)
try:
    g.throw(KeyError, "k")
except KeyError as e:
    print("uncaught kind propagates:", repr(e))
