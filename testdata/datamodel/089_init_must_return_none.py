# __init__ returning a value is a TypeError; calling a class with arguments it
# does not take gives these texts.
class Bad:
    def __init__(self):
        return 5


class NoInit:
    pass


class One:
    def __init__(self, a):
        self.a = a


for make in (lambda: Bad(), lambda: NoInit(1), lambda: One(), lambda: One(1, 2), lambda: One(b=1)):
    try:
        make()
    except TypeError as e:
        print(type(e).__name__, e)
