"""A small stack-machine interpreter with an opcode Enum and a VM class."""
from enum import Enum, auto


class Op(Enum):
    PUSH = auto()
    ADD = auto()
    MUL = auto()
    DUP = auto()
    SWAP = auto()
    PRINT = auto()


class VMError(Exception):
    pass


class VM:
    def __init__(self):
        self.stack = []
        self.output = []

    def pop(self):
        if not self.stack:
            raise VMError("stack underflow")
        return self.stack.pop()

    def run(self, program):
        for op, *arg in program:
            if op is Op.PUSH:
                self.stack.append(arg[0])
            elif op is Op.ADD:
                self.stack.append(self.pop() + self.pop())
            elif op is Op.MUL:
                self.stack.append(self.pop() * self.pop())
            elif op is Op.DUP:
                v = self.pop()
                self.stack += [v, v]
            elif op is Op.SWAP:
                a, b = self.pop(), self.pop()
                self.stack += [a, b]
            elif op is Op.PRINT:
                self.output.append(self.stack[-1])
        return self.output


prog = [(Op.PUSH, 3), (Op.DUP,), (Op.MUL,), (Op.PRINT,), (Op.PUSH, 4), (Op.ADD,), (Op.PRINT,)]
print(VM().run(prog))
print([op.name for op in Op], Op.MUL.value)
try:
    VM().run([(Op.ADD,)])
except VMError as e:
    print("VMError:", e)
