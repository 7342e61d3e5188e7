from collections import deque
import statistics

readings = [21.5, 21.7, 22.0, 35.0, 22.3, 22.1, 21.9, 22.4, 22.6, 10.0, 22.8]

window = deque(maxlen=4)
for i, r in enumerate(readings):
    window.append(r)
    if len(window) == window.maxlen:
        avg = statistics.fmean(window)
        med = statistics.median(window)
        flag = " <- spike" if abs(r - med) > 5 else ""
        print(f"t={i:2d} value={r:5.1f} mean={avg:6.2f} median={med:5.2f}{flag}")

print("window now:", list(window), window.maxlen)

recent = deque(readings, maxlen=3)
print("last three:", recent)
history = deque()
for r in readings[:5]:
    history.appendleft(r)
print("newest first:", list(history))
history.rotate(2)
print("rotated:", list(history))
print("popped:", history.pop(), history.popleft(), len(history))
print("spread:", round(statistics.pstdev(readings), 3), statistics.median_low(readings), statistics.median_high(readings))
