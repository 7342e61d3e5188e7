# __missing__ is called by d[key] only: not by get(), `in` or pop().
class D(dict):
    def __missing__(self, key):
        print("missing", key)
        return key * 2


d = D(a=1)
print(d["a"], d["zz"], d.get("q"), "zz" in d, d)
try:
    d.pop("q")
except KeyError as e:
    print(type(e).__name__, e)


class Plain(dict):
    pass


try:
    Plain()["k"]
except KeyError as e:
    print(type(e).__name__, e)
