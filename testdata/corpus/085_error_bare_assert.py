def is_sorted(xs):
    return all(a <= b for a, b in zip(xs, xs[1:]))


data = [1, 3, 5, 4, 9]
print("checking", data)
print("first pair ok:", data[0] <= data[1])
assert data, "data must not be empty"
assert is_sorted(data)
print("sorted")
