"""An indenting printer whose with-blocks nest, redirecting its output to a StringIO."""
import io
from contextlib import redirect_stdout


class Indenter:
    def __init__(self, step=2):
        self.level = 0
        self.step = step

    def __enter__(self):
        self.level += 1
        return self

    def __exit__(self, *exc):
        self.level -= 1

    def print(self, *args):
        print(" " * (self.level * self.step) + " ".join(map(str, args)))


tree = {"src": {"main.py": 120, "util": {"io.py": 40, "fmt.py": 30}}, "README.md": 8}


def show(node, out):
    for name in sorted(node):
        child = node[name]
        if isinstance(child, dict):
            out.print(name + "/")
            with out:
                show(child, out)
        else:
            out.print(f"{name} ({child} lines)")


buf = io.StringIO()
with redirect_stdout(buf):
    show(tree, Indenter())
text = buf.getvalue()
print(text, end="")
print(len(text.splitlines()), max(len(l) - len(l.lstrip()) for l in text.splitlines()))
