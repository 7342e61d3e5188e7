def search(items, target):
    i = 0
    while i < len(items):
        if items[i] == target:
            print(f"found {target!r} at {i}")
            break
        i += 1
    else:
        print(f"{target!r} not found after {i} checks")


search(["a", "b", "c"], "b")
search(["a", "b", "c"], "z")
search([], "a")

n = 27
steps = 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
    if steps > 1000:
        break
else:
    print("collatz reached 1 in", steps, "steps")

budget = 10
while budget > 0:
    budget -= 3
else:
    print("budget left:", budget)
