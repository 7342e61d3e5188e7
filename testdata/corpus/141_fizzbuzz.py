def fizzbuzz(n: int) -> str:
    """Return the FizzBuzz word for n."""
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return str(n)


assert fizzbuzz(3) == "Fizz"
assert fizzbuzz(10) == "Buzz"
assert fizzbuzz(30) == "FizzBuzz"
assert fizzbuzz(7) == "7"

print(", ".join(fizzbuzz(i) for i in range(1, 21)))
counts = {}
for i in range(1, 101):
    word = fizzbuzz(i)
    key = word if not word.isdigit() else "number"
    counts[key] = counts.get(key, 0) + 1
print(counts)
