from typing import List


def rotate_right(xs: List[int], k: int) -> List[int]:
    if not xs:
        return []
    k %= len(xs)
    return xs[-k:] + xs[:-k] if k else xs[:]


def rotate_in_place(xs: List[int], k: int) -> None:
    def reverse(i: int, j: int) -> None:
        while i < j:
            xs[i], xs[j] = xs[j], xs[i]
            i, j = i + 1, j - 1

    n = len(xs)
    if n == 0:
        return
    k %= n
    reverse(0, n - 1)
    reverse(0, k - 1)
    reverse(k, n - 1)


data = [1, 2, 3, 4, 5, 6, 7]
for k in [0, 1, 3, 7, 10, -2]:
    copy = data[:]
    rotate_in_place(copy, k)
    print(k, rotate_right(data, k), copy == rotate_right(data, k))
print(rotate_right([], 3), "abcdef"[2:] + "abcdef"[:2])
