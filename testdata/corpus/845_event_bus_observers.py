"""An event bus with subscribe decorators and listener objects, dispatching in order."""
from collections import defaultdict


class EventBus:
    def __init__(self):
        self._subs = defaultdict(list)

    def on(self, event):
        def deco(fn):
            self._subs[event].append(fn)
            return fn
        return deco

    def emit(self, event, **payload):
        results = []
        for fn in self._subs.get(event, []):
            results.append(fn(**payload))
        return results


bus = EventBus()


@bus.on("signup")
def welcome(user, **_):
    return f"welcome {user}"


@bus.on("signup")
@bus.on("login")
def audit(user, **extra):
    return f"audit {user} {sorted(extra)}"


class Metrics:
    def __init__(self):
        self.counts = {}

    def __call__(self, user, **_):
        self.counts[user] = self.counts.get(user, 0) + 1
        return self.counts[user]


m = Metrics()
bus.on("login")(m)
print(bus.emit("signup", user="ana", plan="pro"))
print(bus.emit("login", user="ana"))
print(bus.emit("login", user="ana", ip="1.2.3.4"))
print(bus.emit("logout", user="ana"))
print(m.counts, sorted(bus._subs), len(bus._subs["login"]))
