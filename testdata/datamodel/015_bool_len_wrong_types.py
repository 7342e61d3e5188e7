# __bool__ must return a bool; __len__ must return a non-negative int.
class B:
    def __bool__(self):
        return 1


class Neg:
    def __len__(self):
        return -1


class Flt:
    def __len__(self):
        return 2.0


for make in (B, Neg, Flt):
    try:
        print(bool(make()))
    except (TypeError, ValueError) as e:
        print(make.__name__, type(e).__name__, e)
try:
    len(Neg())
except ValueError as e:
    print(type(e).__name__, e)
try:
    len(Flt())
except TypeError as e:
    print(type(e).__name__, e)
