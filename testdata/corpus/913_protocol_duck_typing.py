"""Duck typing with typing.Protocol annotations: any object with draw() works."""
from typing import Protocol, List


class Drawable(Protocol):
    def draw(self) -> str: ...


class Box:
    def __init__(self, w, h):
        self.w, self.h = w, h

    def draw(self):
        return "\n".join(["+" + "-" * self.w + "+"] + ["|" + " " * self.w + "|"] * self.h + ["+" + "-" * self.w + "+"])


class Label:
    def __init__(self, text):
        self.text = text

    def draw(self):
        return f"[{self.text}]"


class Nothing:
    pass


def render_all(items: List[Drawable]) -> str:
    out = []
    for item in items:
        draw = getattr(item, "draw", None)
        out.append(draw() if callable(draw) else f"<cannot draw {type(item).__name__}>")
    return "\n".join(out)


print(render_all([Label("title"), Box(4, 1), Nothing(), Label("end")]))
print(Drawable.__name__, hasattr(Box(1, 1), "draw"))
