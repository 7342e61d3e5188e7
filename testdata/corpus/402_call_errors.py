"""Calling helpers with the wrong arguments, caught and reported; bools as indexes."""

def area(width, height):
    return width * height

def greet(name, greeting="Hello", *, punctuation="!"):
    return f"{greeting}, {name}{punctuation}"

attempts = [
    lambda: area(3),
    lambda: area(),
    lambda: area(1, 2, 3),
    lambda: area(2, width=3),
    lambda: area(2, depth=3),
    lambda: greet(),
    lambda: greet("Ann", punctuation="?"),
    lambda: greet("Bo", "Hi", pad=" "),
]
for i, attempt in enumerate(attempts):
    try:
        print(i, "ok:", attempt())
    except TypeError as exc:
        print(i, "TypeError:", exc)

labels = ["odd", "even"]
for n in range(4):
    print(n, labels[n % 2 == 0], ("small", "big")[n > 1])

tally = [0, 0]
for reading in [3, -1, 4, -1, -5, 9]:
    tally[reading > 0] += 1
print("negative/positive:", tally)

position = 1.0
try:
    [10, 20][position]
except TypeError as exc:
    print("TypeError:", exc)
