# __call__ makes instances callable; callable() checks the type; calling
# with wrong arguments names __call__.
class Adder:
    def __init__(self, n):
        self.n = n

    def __call__(self, x, *, times=1):
        return (x + self.n) * times


add2 = Adder(2)
print(add2(3), add2(3, times=2), callable(add2), callable(Adder), callable(Adder.__call__), list(map(add2, [0, 1])))
for call in (lambda: add2(), lambda: add2(1, 2), lambda: add2(1, bad=2)):
    try:
        call()
    except TypeError as e:
        print(type(e).__name__, e)
