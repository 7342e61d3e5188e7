"""An HTML builder using with-blocks for nesting and __str__ for output."""


class HTML:
    def __init__(self):
        self.lines = []
        self.level = 0

    def tag(self, name, **attrs):
        return _Tag(self, name, attrs)

    def text(self, s):
        self.lines.append("  " * self.level + s)

    def __str__(self):
        return "\n".join(self.lines)


class _Tag:
    def __init__(self, doc, name, attrs):
        self.doc, self.name, self.attrs = doc, name, attrs

    def __enter__(self):
        attrs = "".join(f' {k.rstrip("_")}="{v}"' for k, v in self.attrs.items())
        self.doc.text(f"<{self.name}{attrs}>")
        self.doc.level += 1
        return self.doc

    def __exit__(self, *exc):
        self.doc.level -= 1
        self.doc.text(f"</{self.name}>")
        return False


doc = HTML()
with doc.tag("ul", class_="menu"):
    for item, href in [("Home", "/"), ("About", "/about")]:
        with doc.tag("li"), doc.tag("a", href=href) as d:
            d.text(item)
print(doc)
print(len(doc.lines), doc.level)
