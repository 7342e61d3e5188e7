"""A record that tracks changed fields by overriding __setattr__ and calling object.__setattr__."""


class Tracked:
    def __init__(self, **fields):
        object.__setattr__(self, "_dirty", set())
        for k, v in fields.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        if getattr(self, name, None) != value:
            self._dirty.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._dirty.add(name)
        object.__delattr__(self, name)

    def changes(self):
        return sorted(self._dirty)

    def save(self):
        saved, self._dirty = self.changes(), set()
        return saved


u = Tracked(name="ana", age=30, email="a@x")
print(u.changes())
u.age = 31
u.name = "ana"
u.role = "admin"
print(u.changes(), u.age, u.role)
print(u.save(), u.changes())
del u.email
print(u.changes(), hasattr(u, "email"), sorted(k for k in vars(u) if not k.startswith("_")))
