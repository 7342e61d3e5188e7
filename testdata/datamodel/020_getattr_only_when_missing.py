# __getattr__ is called only when normal lookup fails (instance, class,
# properties); its AttributeError propagates to getattr/hasattr.
class C:
    cls_attr = "class"

    def __init__(self):
        self.inst = "instance"

    def __getattr__(self, name):
        if name.startswith("dyn_"):
            return name[4:].upper()
        raise AttributeError(f"{type(self).__name__!r} has no {name!r}")


c = C()
print(c.inst, c.cls_attr, c.dyn_hello, getattr(c, "dyn_x"))
print(hasattr(c, "nope"), getattr(c, "nope", "default"))
try:
    c.nope
except AttributeError as e:
    print(type(e).__name__, e)
