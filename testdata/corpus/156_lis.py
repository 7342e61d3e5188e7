from typing import List


def longest_increasing_subsequence(nums: List[int]) -> List[int]:
    """O(n^2) dynamic programming with reconstruction."""
    if not nums:
        return []
    n = len(nums)
    length = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if nums[j] < nums[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
                prev[i] = j
    k = max(range(n), key=lambda i: length[i])
    seq = []
    while k != -1:
        seq.append(nums[k])
        k = prev[k]
    return seq[::-1]


for nums in [[10, 9, 2, 5, 3, 7, 101, 18], [0, 1, 0, 3, 2, 3], [7, 7, 7], [], [3, 10, 2, 1, 20]]:
    lis = longest_increasing_subsequence(nums)
    print(nums, "->", lis, len(lis))
