# __index__ lets an object be a list index, a slice bound, an argument of
# bin/hex/range; __int__ alone does not.
class Two:
    def __index__(self):
        return 2


class IntOnly:
    def __int__(self):
        return 2


L = [10, 20, 30, 40]
print(L[Two()], L[:Two()], bin(Two()), hex(Two()), list(range(Two())), "ab" * Two(), int(IntOnly()))
try:
    L[IntOnly()]
except TypeError as e:
    print(type(e).__name__, e)
try:
    range(IntOnly())
except TypeError as e:
    print(type(e).__name__, e)
