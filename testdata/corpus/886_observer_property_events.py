"""Observable properties: setters notify subscribed callbacks with old and new values."""


class Observable:
    def __init__(self):
        self._subscribers = []

    def subscribe(self, fn):
        self._subscribers.append(fn)
        return fn

    def notify(self, name, old, new):
        for fn in self._subscribers:
            fn(self, name, old, new)


class Thermostat(Observable):
    def __init__(self, target):
        super().__init__()
        self._target = target

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, value):
        value = max(5, min(30, value))
        if value != self._target:
            old, self._target = self._target, value
            self.notify("target", old, value)

    @target.deleter
    def target(self):
        print("resetting target")
        self.target = 20


history = []
t = Thermostat(18)
t.subscribe(lambda obj, name, old, new: history.append((name, old, new)))


@t.subscribe
def warn(obj, name, old, new):
    if new >= 25:
        print(f"warning: {name} set high ({new})")


for v in [21, 21, 40, 2]:
    t.target = v
del t.target
print(history, t.target)
