# C3 linearisation of a diamond and of a deeper graph (the classic example).
class O: pass
class A(O): pass
class B(O): pass
class C(O): pass
class D(O): pass
class E(O): pass
class K1(A, B, C): pass
class K2(D, B, E): pass
class K3(D, A): pass
class Z(K1, K2, K3): pass


print([k.__name__ for k in Z.__mro__])
print([k.__name__ for k in K1.mro()])
print(Z.__bases__ == (K1, K2, K3), O.__bases__, object.__bases__)
