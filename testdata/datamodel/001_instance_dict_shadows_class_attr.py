# An instance attribute shadows a class attribute of the same name; deleting it
# uncovers the class attribute again.
class C:
    x = "class"


c = C()
print(c.x, "x" in vars(c))
c.x = "instance"
print(c.x, C.x, vars(c))
del c.x
print(c.x, vars(c))
try:
    del c.x
except AttributeError as e:
    print(type(e).__name__, e)
