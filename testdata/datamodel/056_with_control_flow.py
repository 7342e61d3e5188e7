# return, break and continue leaving a with body all run __exit__ first.
class CM:
    def __init__(self, tag, log):
        self.tag, self.log = tag, log

    def __enter__(self):
        self.log.append("enter " + self.tag)

    def __exit__(self, *exc):
        self.log.append("exit " + self.tag)


log = []


def f():
    with CM("ret", log):
        return "returned"


print(f())
for i in range(3):
    with CM(f"loop{i}", log):
        if i == 0:
            continue
        if i == 1:
            break
print(log)
