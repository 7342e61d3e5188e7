# A __setattr__ override sees every assignment, including those in __init__,
# and stores through object.__setattr__ (or super().__setattr__).
class Logged:
    def __init__(self):
        self.a = 1

    def __setattr__(self, name, value):
        print("set", name, value)
        object.__setattr__(self, name, value * 10 if isinstance(value, int) else value)


x = Logged()
x.b = 2
x.c = "s"
setattr(x, "d", 4)
print(vars(x))


class ReadOnly:
    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")


try:
    ReadOnly().x = 1
except AttributeError as e:
    print(type(e).__name__, e)
