def normalize(weights):
    total = sum(weights)
    return [w / total for w in weights]


weights = normalize([1, 2, 3, 4])
print([round(w, 3) for w in weights])
print(round(sum(weights), 6))
expected_len = 5
assert len(weights) == expected_len, f"expected {expected_len} weights, got {len(weights)}"
print("unreachable")
