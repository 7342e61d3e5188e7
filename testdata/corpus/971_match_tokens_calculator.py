"""A calculator REPL loop over scripted input, using match on split command words."""


class Calc:
    def __init__(self):
        self.stack = []
        self.vars = {}

    def execute(self, line):
        match line.split():
            case []:
                return None
            case ["push", value]:
                self.stack.append(float(value) if "." in value else int(value))
            case ["pop"]:
                return self.stack.pop()
            case ["add" | "mul" as op]:
                b, a = self.stack.pop(), self.stack.pop()
                self.stack.append(a + b if op == "add" else a * b)
            case ["store", name]:
                self.vars[name] = self.stack[-1]
            case ["load", name] if name in self.vars:
                self.stack.append(self.vars[name])
            case ["load", name]:
                raise KeyError(f"no variable {name}")
            case [cmd, *args]:
                raise ValueError(f"unknown command {cmd!r} with {len(args)} args")
        return self.stack[-1] if self.stack else None


c = Calc()
for line in ["push 2", "push 3", "add", "store x", "push 1.5", "mul", "load x", "", "load y", "frob 1 2", "pop"]:
    try:
        print(f"{line!r:<12} -> {c.execute(line)}")
    except (KeyError, ValueError) as e:
        print(f"{line!r:<12} !! {type(e).__name__}: {e}")
print(c.stack, c.vars)
