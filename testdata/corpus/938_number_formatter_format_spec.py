"""A Quantity class whose __format__ understands unit prefixes, used in an f-string table."""


class Quantity:
    PREFIXES = [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1, "")]

    def __init__(self, value, unit):
        self.value, self.unit = value, unit

    def __format__(self, spec):
        if spec.endswith("h"):
            digits = int(spec[:-1] or 1)
            for factor, prefix in self.PREFIXES:
                if abs(self.value) >= factor:
                    return f"{self.value / factor:.{digits}f} {prefix}{self.unit}"
            return f"{self.value:.{digits}f} {self.unit}"
        return format(self.value, spec) + " " + self.unit

    def __repr__(self):
        return f"Quantity({self.value!r}, {self.unit!r})"


rows = [("disk", Quantity(512_000_000_000, "B")), ("cpu", Quantity(2_400_000_000, "Hz")),
        ("rate", Quantity(12_500, "req/s")), ("temp", Quantity(0.5, "K"))]
for name, q in rows:
    print(f"{name:<5}|{q:1h}|{q:2h}|{q:,.0f}|")
print(format(rows[0][1], "h"), "{:3h}".format(rows[2][1]), rows[3])
