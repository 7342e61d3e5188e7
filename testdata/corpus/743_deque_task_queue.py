"""A task queue on collections.deque: rotation, a sliding window, and the
RuntimeError a loop gets when it changes the deque it walks."""
from collections import deque

tasks = deque(["build", "test", "lint", "deploy"])
tasks.rotate(1)
print(tasks, tasks[0], tasks[-1])
tasks.appendleft("fetch")
tasks.extend(["notify", "cleanup"])
print(len(tasks), tasks.index("deploy"), tasks.count("test"))

done = []
while tasks:
    job = tasks.popleft()
    if job == "test" and "retest" not in done:
        tasks.append("retest")
    done.append(job)
print(done)

# Changing a deque while a for loop walks it is an error, as in CPython;
# setting an element in place is not.
queue = deque([3, 1, 2])
try:
    for n in queue:
        if n == 1:
            queue.append(n * 10)
except RuntimeError as e:
    print("RuntimeError:", e)
print(queue)
for i, n in enumerate(queue):
    queue[i] = n * 2
print(queue)

window = deque(maxlen=3)
averages = []
for reading in [10, 20, 30, 40, 50]:
    window.append(reading)
    averages.append(round(sum(window) / len(window), 1))
print(averages, window, window.maxlen)

try:
    deque().pop()
except IndexError as e:
    print("IndexError:", e)
try:
    window.pop(0)
except TypeError as e:
    print("TypeError:", e)
