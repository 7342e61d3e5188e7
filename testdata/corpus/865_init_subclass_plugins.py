"""Plugins registering themselves through __init_subclass__ with a keyword argument."""


class Handler:
    handlers = {}

    def __init_subclass__(cls, /, kind=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.kind = kind or cls.__name__.lower()
        Handler.handlers[cls.kind] = cls

    def handle(self, payload):
        raise NotImplementedError


class Text(Handler, kind="text/plain"):
    def handle(self, payload):
        return payload.strip()


class Json(Handler, kind="application/json"):
    def handle(self, payload):
        import json
        return json.loads(payload)


class Csv(Handler):
    def handle(self, payload):
        return [line.split(",") for line in payload.splitlines()]


def dispatch(kind, payload):
    return Handler.handlers[kind]().handle(payload)


print(sorted(Handler.handlers))
print(dispatch("text/plain", "  hi  "), dispatch("application/json", '{"a": [1, 2]}'))
print(dispatch("csv", "a,b\n1,2"), Csv.kind, Text.kind)
try:
    Handler().handle("x")
except NotImplementedError as e:
    print("NotImplementedError", repr(e))
