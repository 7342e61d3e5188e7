# Exception subclasses: args comes from the arguments of the call (even when
# __init__ does not call super), str() of no args is empty, of one arg its str.
class A(Exception):
    pass


class B(Exception):
    def __init__(self, code, msg):
        self.code = code


class C(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code


for e in [A(), A("one"), A("x", 2), B(7, "boom"), C(9)]:
    print(type(e).__name__, repr(str(e)), e.args, repr(e))
