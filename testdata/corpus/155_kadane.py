def max_subarray(nums):
    """Return (best_sum, start, end) of the maximum-sum contiguous subarray."""
    best = cur = nums[0]
    start = best_start = best_end = 0
    for i in range(1, len(nums)):
        if cur + nums[i] < nums[i]:
            cur = nums[i]
            start = i
        else:
            cur += nums[i]
        if cur > best:
            best, best_start, best_end = cur, start, i
    return best, best_start, best_end


tests = [
    [-2, 1, -3, 4, -1, 2, 1, -5, 4],
    [1],
    [-3, -1, -2],
    [5, 4, -1, 7, 8],
    [2, -1, 2, -1, 2],
]
for t in tests:
    s, i, j = max_subarray(t)
    assert s == sum(t[i:j + 1])
    print(t, "->", s, t[i:j + 1])
