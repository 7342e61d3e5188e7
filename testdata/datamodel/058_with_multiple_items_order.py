# with A() as a, B() as b: enters left to right, exits right to left; an
# exception in the second __enter__ exits only the first.
class CM:
    def __init__(self, name, fail=False):
        self.name, self.fail = name, fail

    def __enter__(self):
        print("enter", self.name)
        if self.fail:
            raise RuntimeError(f"{self.name} failed to enter")
        return self.name

    def __exit__(self, t, v, tb):
        print("exit", self.name, t.__name__ if t else None)
        return False


with CM("a") as a, CM("b") as b:
    print("body", a, b)
try:
    with CM("x"), CM("y", fail=True), CM("z"):
        print("not reached")
except RuntimeError as e:
    print("caught", e)
