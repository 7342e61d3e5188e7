def fragile(n):
    if n % 3 == 0:
        raise RuntimeError("multiple of three")
    if n % 5 == 0:
        return [][n]
    return n * 2


results = []
failures = 0
for n in range(1, 11):
    try:
        results.append(fragile(n))
    except:
        failures += 1
        results.append(None)

print(results)
print("failures:", failures)

try:
    value = {"a": 1}["b"]
except:
    value = "fallback"
print(value)
