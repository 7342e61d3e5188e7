"""A shopping cart with __len__, __iter__, __contains__, __getitem__ and __bool__."""


class Cart:
    def __init__(self):
        self._lines = {}

    def add(self, sku, qty=1, price=0.0):
        q, p = self._lines.get(sku, (0, price))
        self._lines[sku] = (q + qty, price or p)

    def __len__(self):
        return sum(q for q, _ in self._lines.values())

    def __iter__(self):
        return iter(sorted(self._lines))

    def __contains__(self, sku):
        return sku in self._lines

    def __getitem__(self, sku):
        return self._lines[sku]

    def __bool__(self):
        return bool(self._lines)

    @property
    def total(self):
        return round(sum(q * p for q, p in self._lines.values()), 2)


cart = Cart()
print(bool(cart), len(cart), list(cart))
cart.add("milk", 2, 1.19)
cart.add("bread", 1, 2.5)
cart.add("milk", 1)
print(bool(cart), len(cart), list(cart), "milk" in cart, "eggs" in cart)
print(cart["milk"], cart.total)
for sku in cart:
    q, p = cart[sku]
    print(f"{sku:>6} x{q} @ {p:.2f}")
print(sorted(cart, reverse=True), max(cart), "-".join(cart))
try:
    cart["eggs"]
except KeyError as e:
    print("KeyError:", e)
