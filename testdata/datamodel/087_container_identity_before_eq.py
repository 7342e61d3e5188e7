# Containers test identity before __eq__: an object whose __eq__ is always
# False is still found in a list, counted, and equal inside [x] == [x].
class Never:
    def __eq__(self, other):
        print("eq called")
        return False

    __hash__ = object.__hash__


n = Never()
print(n in [n], [n].count(n), [n] == [n], n == n, {n: 1}[n])
print(Never() in [n])
