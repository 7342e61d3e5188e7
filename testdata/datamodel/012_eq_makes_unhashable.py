# Defining __eq__ without __hash__ sets __hash__ to None: instances are
# unhashable. Inheriting __eq__ alone keeps the base's None.
class P:
    def __eq__(self, other):
        return True


class Q(P):
    pass


print(P.__hash__, Q.__hash__, "__hash__" in vars(P))
for obj in (P(), Q()):
    try:
        hash(obj)
    except TypeError as e:
        print(type(e).__name__, e)
try:
    {P(): 1}
except TypeError as e:
    print(type(e).__name__, e)
try:
    {Q()}
except TypeError as e:
    print(type(e).__name__, e)
