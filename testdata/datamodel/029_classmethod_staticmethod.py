# classmethod receives the class it is called on (a subclass too);
# staticmethod receives nothing; both can be called on instances.
class A:
    @classmethod
    def create(cls, *args):
        return cls.__name__, args

    @staticmethod
    def helper(x):
        return x * 2

    def normal(self):
        return type(self).__name__


class B(A):
    pass


print(A.create(1), B.create(), B().create(2), A.helper(3), B().helper(4))
print(A.normal(B()), type(A.__dict__["create"]).__name__, type(A.__dict__["helper"]).__name__)
print(A.create.__self__ is A, B.create.__self__ is B, A.helper.__name__)
try:
    A.normal()
except TypeError as e:
    print(type(e).__name__, e)
