# A token bucket driven by recorded request times (seconds), plus a real short sleep.
import time

def simulate(times, rate, burst):
    tokens = burst
    last = times[0]
    decisions = []
    for t in times:
        tokens = min(burst, tokens + (t - last) * rate)
        last = t
        if tokens >= 1:
            tokens -= 1
            decisions.append("ok")
        else:
            decisions.append("429")
    return decisions

requests = [0.0, 0.1, 0.2, 0.25, 0.3, 1.3, 1.35, 2.0, 2.05, 2.1, 2.15]
decisions = simulate(requests, rate=2.0, burst=3)
for t, d in zip(requests, decisions):
    print(f"t={t:4.2f}s {d}")
print("accepted:", decisions.count("ok"), "rejected:", decisions.count("429"))

start = time.monotonic()
for _ in range(3):
    time.sleep(0.005)
print("waited >= 15 ms:", time.monotonic() - start >= 0.015)
