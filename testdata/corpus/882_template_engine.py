"""A tiny template engine: a Template class compiling {{ name|filter }} placeholders."""
import re


class TemplateError(Exception):
    pass


class Template:
    FILTERS = {"upper": str.upper, "title": str.title, "strip": str.strip}
    PATTERN = re.compile(r"\{\{\s*(\w+)(?:\|(\w+))?\s*\}\}")

    def __init__(self, text):
        self.text = text
        self.names = [m.group(1) for m in self.PATTERN.finditer(text)]

    @classmethod
    def register(cls, name):
        def deco(fn):
            cls.FILTERS[name] = fn
            return fn
        return deco

    def render(self, **ctx):
        def sub(m):
            name, filt = m.group(1), m.group(2)
            if name not in ctx:
                raise TemplateError(f"undefined variable {name!r}")
            value = str(ctx[name])
            if filt:
                if filt not in self.FILTERS:
                    raise TemplateError(f"unknown filter {filt!r}")
                value = self.FILTERS[filt](value)
            return value
        return self.PATTERN.sub(sub, self.text)


@Template.register("reverse")
def _reverse(s):
    return s[::-1]


t = Template("Hello {{ name|title }}, you have {{count}} new {{ what|upper }}! {{ name|reverse }}")
print(t.names)
print(t.render(name="ada lovelace", count=3, what="messages"))
for ctx in [{"name": "x", "count": 1}, {"name": "x", "count": 1, "what": "y"}]:
    try:
        print(Template("{{ what|shout }}").render(**ctx))
    except TemplateError as e:
        print("TemplateError:", e)
