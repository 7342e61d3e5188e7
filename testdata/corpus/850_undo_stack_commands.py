"""A text editor with command objects supporting undo and redo."""
from abc import ABC, abstractmethod


class Command(ABC):
    @abstractmethod
    def do(self, doc): ...

    @abstractmethod
    def undo(self, doc): ...


class Insert(Command):
    def __init__(self, pos, text):
        self.pos, self.text = pos, text

    def do(self, doc):
        doc.text = doc.text[:self.pos] + self.text + doc.text[self.pos:]

    def undo(self, doc):
        doc.text = doc.text[:self.pos] + doc.text[self.pos + len(self.text):]


class Delete(Command):
    def __init__(self, pos, n):
        self.pos, self.n, self.removed = pos, n, ""

    def do(self, doc):
        self.removed = doc.text[self.pos:self.pos + self.n]
        doc.text = doc.text[:self.pos] + doc.text[self.pos + self.n:]

    def undo(self, doc):
        doc.text = doc.text[:self.pos] + self.removed + doc.text[self.pos:]


class Document:
    def __init__(self):
        self.text = ""
        self.done, self.undone = [], []

    def apply(self, cmd):
        cmd.do(self)
        self.done.append(cmd)
        self.undone.clear()

    def undo(self):
        if self.done:
            cmd = self.done.pop()
            cmd.undo(self)
            self.undone.append(cmd)

    def redo(self):
        if self.undone:
            cmd = self.undone.pop()
            cmd.do(self)
            self.done.append(cmd)


d = Document()
d.apply(Insert(0, "hello world"))
d.apply(Delete(5, 6))
d.apply(Insert(5, ", there"))
print(repr(d.text))
d.undo(); print(repr(d.text))
d.undo(); print(repr(d.text))
d.redo(); print(repr(d.text))
d.apply(Insert(0, ">> ")); d.redo(); print(repr(d.text), len(d.done), len(d.undone))
