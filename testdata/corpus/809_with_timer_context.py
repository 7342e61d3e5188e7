"""A user context manager that records sections and whether they failed."""


class Section:
    log = []

    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        Section.log.append(f"enter {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        status = "ok" if exc_type is None else f"failed ({exc_type.__name__}: {exc})"
        Section.log.append(f"exit {self.name}: {status}")
        return self.swallow


with Section("load") as s:
    data = [1, 2, 3]
    print("inside", s.name)

with Section("parse", swallow=True):
    int("x")
print("after parse")

try:
    with Section("save"):
        raise KeyError("disk")
except KeyError as e:
    print("caught", repr(e))


def first_even(nums):
    for n in nums:
        with Section(f"check {n}"):
            if n % 2 == 0:
                return n
    return None


print(first_even([3, 5, 6, 7]))
for line in Section.log:
    print(line)
