# Special methods are looked up on the type: assigning __len__ or __call__ on
# an instance does not make len() or calls use it; ordinary lookup does see it.
class C:
    def __len__(self):
        return 1


c = C()
c.__len__ = lambda: 99
print(len(c), c.__len__())
c.__call__ = lambda: "called"
try:
    c()
except TypeError as e:
    print(type(e).__name__, e)
C.__call__ = lambda self: "class call"
print(c())
