"""An indenting code writer: a contextmanager method nests blocks."""
from contextlib import contextmanager


class CodeWriter:
    def __init__(self, indent="    "):
        self.lines = []
        self.level = 0
        self.indent = indent

    def line(self, text=""):
        self.lines.append(self.indent * self.level + text if text else "")

    @contextmanager
    def block(self, header):
        self.line(header + ":")
        self.level += 1
        start = len(self.lines)
        try:
            yield self
        finally:
            if len(self.lines) == start:
                self.line("pass")
            self.level -= 1

    def render(self):
        return "\n".join(self.lines)


w = CodeWriter()
fields = {"name": "str", "age": "int"}
with w.block("class Person"):
    with w.block("def __init__(self, " + ", ".join(f"{k}: {v}" for k, v in fields.items()) + ")"):
        for k in fields:
            w.line(f"self.{k} = {k}")
    w.line()
    with w.block("def is_adult(self)"):
        w.line("return self.age >= 18")
    with w.block("def todo(self)"):
        pass
print(w.render())
print(w.level, len(w.lines))
try:
    with w.block("def broken()"):
        raise RuntimeError("template error")
except RuntimeError as e:
    print("RuntimeError:", e, "| level restored to", w.level, "| last line:", w.lines[-1].strip())
