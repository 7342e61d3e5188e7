"""Grade bands with bisect and objects sorted by a key, plus a band class."""
import bisect


class Band:
    def __init__(self, floor, label):
        self.floor, self.label = floor, label

    def __lt__(self, other):
        return self.floor < other.floor

    def __repr__(self):
        return f"Band({self.floor}, {self.label!r})"


bands = sorted([Band(90, "A"), Band(0, "F"), Band(70, "C"), Band(80, "B"), Band(60, "D")])
floors = [b.floor for b in bands]


def classify(score):
    return bands[bisect.bisect_right(floors, score) - 1].label


scores = [55, 60, 69, 70, 85, 90, 100]
print([classify(s) for s in scores])
print(bands)
insort_target = [Band(10, "x"), Band(30, "z")]
bisect.insort(insort_target, Band(20, "y"))
print(insort_target)
print(bisect.bisect_left(floors, 70), bisect.bisect(floors, 70))
