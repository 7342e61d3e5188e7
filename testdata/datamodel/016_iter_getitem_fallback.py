# Without __iter__, iteration calls __getitem__(0), (1), ... until IndexError.
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * 10


class NotIterable:
    pass


print(list(Seq()), [x for x in Seq()], tuple(Seq()), 20 in Seq(), 25 in Seq())
a, b, c = Seq()
print(a, b, c, sorted(Seq(), reverse=True), max(Seq()))
try:
    iter(NotIterable())
except TypeError as e:
    print(type(e).__name__, e)
try:
    for x in NotIterable():
        pass
except TypeError as e:
    print(type(e).__name__, e)
