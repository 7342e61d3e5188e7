# TypeError texts for method calls with wrong arguments name the qualified
# method; a method defined without self receives the instance anyway.
class C:
    def m(self, x):
        return x

    def no_self():
        return "none"

    @staticmethod
    def s(x):
        return x


c = C()
for call in (lambda: c.m(), lambda: c.m(1, 2), lambda: c.m(y=1), lambda: c.no_self(), lambda: C.s(), lambda: C.m(1)):
    try:
        call()
    except TypeError as e:
        print(type(e).__name__, e)
print(C.no_self())
