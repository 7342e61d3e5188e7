"""Commands as plain classes with __match_args__, interpreted with match."""


class Move:
    __match_args__ = ("dx", "dy")

    def __init__(self, dx, dy):
        self.dx, self.dy = dx, dy


class Say:
    __match_args__ = ("text",)

    def __init__(self, text):
        self.text = text


class Quit:
    pass


def run(commands):
    x = y = 0
    for cmd in commands:
        match cmd:
            case Move(0, 0):
                print("no-op move")
            case Move(dx, 0):
                x += dx
                print("horizontal", dx)
            case Move(dx, dy):
                x, y = x + dx, y + dy
                print("move", dx, dy)
            case Say(text) if text.endswith("?"):
                print("question:", text)
            case Say(text=t):
                print("say:", t)
            case Quit():
                print("quit")
                break
    return x, y


print(run([Move(1, 0), Move(0, 0), Say("hi"), Move(2, 3), Say("where?"), Quit(), Move(9, 9)]))
