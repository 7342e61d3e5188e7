# Default object equality is identity, default hash is consistent with it;
# instances of a plain class work as dict keys and set members.
class P:
    pass


a, b = P(), P()
print(a == a, a == b, a != b, hash(a) == hash(a), len({a, b, a}))
d = {a: "a", b: "b"}
print(d[a], d[b], a in d, P() in d)
try:
    a < b
except TypeError as e:
    print(type(e).__name__, e)
