"""A Signal class with connect/disconnect and bound methods as receivers, compared by equality."""


class Signal:
    def __init__(self, name):
        self.name = name
        self.receivers = []

    def connect(self, fn):
        if fn not in self.receivers:
            self.receivers.append(fn)
        return fn

    def disconnect(self, fn):
        self.receivers.remove(fn)

    def send(self, *args):
        return [fn(*args) for fn in self.receivers]


class Logger:
    def __init__(self, prefix):
        self.prefix = prefix
        self.lines = []

    def receive(self, msg):
        self.lines.append(f"{self.prefix}{msg}")
        return len(self.lines)


saved = Signal("saved")
log = Logger("> ")
saved.connect(log.receive)
saved.connect(log.receive)
saved.connect(str.upper)
print(len(saved.receivers), log.receive == log.receive, log.receive is log.receive)
print(saved.send("doc1"), saved.send("doc2"))
saved.disconnect(log.receive)
print(saved.send("doc3"), log.lines)
try:
    saved.disconnect(log.receive)
except ValueError as e:
    print("ValueError:", e)
print(log.receive.__self__ is log, log.receive.__func__ is Logger.receive, log.receive.__name__)
