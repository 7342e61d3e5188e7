def sign(x):
    return "positive" if x > 0 else "negative" if x < 0 else "zero"


print([sign(x) for x in [5, -2, 0, 0.1, -0.0]])

def pluralize(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"

for n in [0, 1, 2]:
    print(pluralize(n, "file"), pluralize(n, "error"))

scores = [45, 67, 89, 100, 12]
labels = ["pass" if s >= 50 else "fail" for s in scores]
print(list(zip(scores, labels)))
values = [3, None, 7, None]
print([v if v is not None else 0 for v in values])
x = 15
print("fizzbuzz" if x % 15 == 0 else "fizz" if x % 3 == 0 else "buzz" if x % 5 == 0 else x)
