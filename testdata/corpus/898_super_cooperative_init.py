"""Cooperative multiple inheritance: every __init__ calls super().__init__(**kwargs)."""


class Base:
    def __init__(self, **kwargs):
        self.trace = ["Base"]
        if kwargs:
            raise TypeError(f"unexpected options {sorted(kwargs)}")


class Named(Base):
    def __init__(self, name="", **kwargs):
        super().__init__(**kwargs)
        self.name = name
        self.trace.append("Named")


class Timestamped(Base):
    def __init__(self, created=0, **kwargs):
        super().__init__(**kwargs)
        self.created = created
        self.trace.append("Timestamped")


class Document(Named, Timestamped):
    def __init__(self, body="", **kwargs):
        super().__init__(**kwargs)
        self.body = body
        self.trace.append("Document")


d = Document(body="hi", name="readme", created=7)
print(d.trace, d.name, d.created, d.body)
print([c.__name__ for c in Document.__mro__])
try:
    Document(body="x", colour="red")
except TypeError as e:
    print("TypeError:", e)
print(super(Named, d).__init__.__qualname__, super(Document, d).__init__.__qualname__)
