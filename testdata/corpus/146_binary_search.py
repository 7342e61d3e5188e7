from typing import List


def binary_search(arr: List[int], target: int) -> int:
    """Return the index of target in sorted arr, or -1."""
    lo, hi = 0, len(arr) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if arr[mid] == target:
            return mid
        if arr[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def lower_bound(arr: List[int], target: int) -> int:
    lo, hi = 0, len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if arr[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


data = [1, 3, 5, 7, 9, 11, 13, 15]
for t in [1, 7, 15, 4, 0, 16]:
    print(t, binary_search(data, t), lower_bound(data, t))
dups = [1, 2, 2, 2, 3]
print(lower_bound(dups, 2), lower_bound(dups, 3), lower_bound([], 5))
assert all(binary_search(data, x) == data.index(x) for x in data)
