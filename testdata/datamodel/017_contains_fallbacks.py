# `in` uses __contains__, else iterates (__iter__), else __getitem__; with
# none of them it is a TypeError.
class WithContains:
    def __contains__(self, x):
        print("__contains__", x)
        return x == "yes"


class WithIter:
    def __iter__(self):
        return iter([1, 2, 3])


class Nothing:
    pass


print("yes" in WithContains(), "no" not in WithContains())
print(2 in WithIter(), 5 in WithIter())
try:
    1 in Nothing()
except TypeError as e:
    print(type(e).__name__, e)
