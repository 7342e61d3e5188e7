from typing import List, Tuple

Interval = Tuple[int, int]


def merge(intervals: List[Interval]) -> List[Interval]:
    merged: List[Interval] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def total_covered(intervals: List[Interval]) -> int:
    return sum(e - s for s, e in merge(intervals))


def free_slots(busy: List[Interval], day: Interval) -> List[Interval]:
    free, cursor = [], day[0]
    for s, e in merge(busy):
        if s > cursor:
            free.append((cursor, s))
        cursor = max(cursor, e)
    if cursor < day[1]:
        free.append((cursor, day[1]))
    return free


print(merge([(1, 3), (2, 6), (8, 10), (15, 18)]))
print(merge([(1, 4), (4, 5)]), merge([]), merge([(5, 7), (1, 2), (2, 3)]))
print(total_covered([(0, 10), (5, 15), (20, 25)]))
meetings = [(9, 10), (12, 13), (9, 11), (15, 16)]
print(free_slots(meetings, (8, 18)))
