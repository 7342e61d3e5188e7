# str() falls back to __repr__; format() with an empty spec uses str(); a
# non-empty spec on a class without __format__ is a TypeError.
class R:
    def __repr__(self):
        return "R-repr"


class S:
    def __str__(self):
        return "S-str"


print(str(R()), f"{R()}", format(R()), [R()], str([S()]).startswith("[<__main__.S object"))
print(f"{S()}", "{}".format(S()), "%s" % S())
try:
    format(R(), ">10")
except TypeError as e:
    print(type(e).__name__, e)
print(f"{R()!r:>10}|{R()!s:<8}|")
