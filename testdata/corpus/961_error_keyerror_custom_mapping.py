"""A registry mapping class implementing __getitem__; an unknown key raises its KeyError."""


class Registry:
    def __init__(self):
        self._items = {}

    def register(self, name):
        def deco(obj):
            self._items[name] = obj
            return obj
        return deco

    def __getitem__(self, name):
        if name not in self._items:
            raise KeyError(f"{name!r} not registered (known: {', '.join(sorted(self._items))})")
        return self._items[name]

    def __len__(self):
        return len(self._items)


formats = Registry()


@formats.register("upper")
def upper(s):
    return s.upper()


@formats.register("title")
def title(s):
    return s.title()


print(len(formats), formats["upper"]("abc"), formats["title"]("hello world"))
print(formats["snake"]("Hello World"))
