# Time a few steps of work with perf_counter and monotonic; print facts that do not depend on speed.
import time

def work(n):
    total = 0
    for i in range(n):
        total += i * i
    return total

timings = {}
for n in (1000, 5000, 20000):
    start = time.perf_counter()
    result = work(n)
    timings[n] = time.perf_counter() - start
    print(n, result)

print("all non-negative:", all(v >= 0 for v in timings.values()))
t0 = time.monotonic()
time.sleep(0.02)
slept = time.monotonic() - t0
print("slept at least 20 ms:", slept >= 0.02)
print("time is a float:", isinstance(time.time(), float), "ns is an int:", isinstance(time.time_ns(), int))
print("clock sane:", time.time() > 1.7e9, abs(time.time_ns() / 1e9 - time.time()) < 5)
ns0 = time.perf_counter_ns()
print("ns clock advances:", time.perf_counter_ns() >= ns0)
