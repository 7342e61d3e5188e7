# __repr__ and __str__ must return str; __format__ must return str too.
class BadRepr:
    def __repr__(self):
        return 42


class BadStr:
    def __str__(self):
        return None


class BadFormat:
    def __format__(self, spec):
        return 1


for fn, obj in [(repr, BadRepr()), (str, BadStr()), (format, BadFormat())]:
    try:
        fn(obj)
    except TypeError as e:
        print(type(e).__name__, e)
try:
    print(BadStr())
except TypeError as e:
    print(type(e).__name__, e)
