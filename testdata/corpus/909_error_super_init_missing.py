"""A subclass that forgets to call super().__init__: a later attribute read fails."""


class Widget:
    def __init__(self, name):
        self.name = name
        self.children = []

    def add(self, child):
        self.children.append(child)
        return self


class Button(Widget):
    def __init__(self, label):
        self.label = label

    def __repr__(self):
        return f"Button({self.label!r})"


root = Widget("root")
root.add(Widget("panel"))
print(root.name, [c.name for c in root.children])
b = Button("OK")
print(b, vars(b))
root.add(b)
print(len(root.children))
b.add(Button("inner"))
