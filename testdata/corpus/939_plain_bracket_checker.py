"""Checking brackets in code snippets with a stack, reporting positions with a result class."""
PAIRS = {")": "(", "]": "[", "}": "{"}


class Result:
    def __init__(self, ok, pos=None, msg=""):
        self.ok, self.pos, self.msg = ok, pos, msg

    def __repr__(self):
        return "ok" if self.ok else f"error at {self.pos}: {self.msg}"


def check(src):
    stack = []
    for i, ch in enumerate(src):
        if ch in "([{":
            stack.append((ch, i))
        elif ch in PAIRS:
            if not stack:
                return Result(False, i, f"unexpected {ch!r}")
            open_ch, j = stack.pop()
            if open_ch != PAIRS[ch]:
                return Result(False, i, f"{ch!r} closes {open_ch!r} from {j}")
    if stack:
        ch, j = stack[-1]
        return Result(False, j, f"{ch!r} never closed")
    return Result(True)


for src in ["f(a[1], {b: 2})", "f(a[1)]", "x = [1, 2", "print())", ""]:
    print(f"{src!r:<20} {check(src)}")
