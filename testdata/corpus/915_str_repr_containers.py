"""How print uses __str__ and containers use __repr__ of their elements."""


class Tag:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"#{self.name}"

    def __repr__(self):
        return f"Tag({self.name!r})"


class OnlyStr:
    def __str__(self):
        return "only-str"


class OnlyRepr:
    def __repr__(self):
        return "OnlyRepr()"


tags = [Tag("py"), Tag("go")]
print(tags[0], tags)
print(str(tags[0]), repr(tags[0]), f"{tags[0]}", f"{tags[0]!r}", "%s %r" % (tags[0], tags[0]))
print({"t": tags[0]}, (tags[0],), {tags[0].name: tags})
print(OnlyRepr(), str(OnlyRepr()), [OnlyRepr()])
print(OnlyStr(), "-".join(str(t) for t in tags), "{}".format(tags[1]))
print(str(tags), format(tags[0]), ascii(Tag("é")))
