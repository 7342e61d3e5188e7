def bubble_sort(xs):
    xs = list(xs)
    n = len(xs)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
                swapped = True
        if not swapped:
            break
    return xs


def insertion_sort(xs):
    xs = list(xs)
    for i in range(1, len(xs)):
        key = xs[i]
        j = i - 1
        while j >= 0 and xs[j] > key:
            xs[j + 1] = xs[j]
            j -= 1
        xs[j + 1] = key
    return xs


def merge_sort(xs):
    if len(xs) <= 1:
        return list(xs)
    mid = len(xs) // 2
    left, right = merge_sort(xs[:mid]), merge_sort(xs[mid:])
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            out.append(left[i]); i += 1
        else:
            out.append(right[j]); j += 1
    return out + left[i:] + right[j:]


def quick_sort(xs):
    if len(xs) <= 1:
        return list(xs)
    pivot, *rest = xs
    return quick_sort([x for x in rest if x < pivot]) + [pivot] + quick_sort([x for x in rest if x >= pivot])


data = [38, 27, 43, 3, 9, 82, 10, 3, -5, 0]
for sort in (bubble_sort, insertion_sort, merge_sort, quick_sort):
    result = sort(data)
    assert result == sorted(data)
    print(f"{sort.__name__:15} {result}")
print(merge_sort(list("sorting")), quick_sort([]))
