queue = iter(["task-1", "task-2", "task-3"])

while True:
    try:
        task = next(queue)
    except StopIteration:
        print("queue drained")
        break
    print("running", task)

numbers = iter([1, 2])
print(next(numbers), next(numbers), next(numbers, "default"))

try:
    next(numbers)
except StopIteration as e:
    print("StopIteration caught", repr(str(e)))

first_even = next((n for n in [1, 3, 5, 6, 8] if n % 2 == 0), None)
first_big = next((n for n in [1, 2, 3] if n > 10), None)
print(first_even, first_big)
