import string

# Which fields does a template need? Formatter().parse answers it.
templates = {
    "greeting": "Hello {name}, you have {count:d} new {item}s!",
    "report": "{0:>10} | {1:^8} | {total:.2f}",
    "escaped": "Use {{braces}} for {literal} text",
    "conversions": "{user!r} logged in at {time!s:>8}",
}
f = string.Formatter()
for key, tmpl in templates.items():
    parts = list(f.parse(tmpl))
    fields = [name for _, name, _, _ in parts if name is not None]
    print(key, fields)
    print("  ", parts)

print(f.format(templates["greeting"], name="Ann", count=3, item="message"))
print(f.vformat(templates["report"], ("apples", "x3"), {"total": 12.5}))
print(f.get_field("user.title", (), {"user": "bob"})[1])
print(f.format_field(3.14159, ".3f"), f.convert_field("hi", "r"))

t = string.Template("$who likes ${what} and $$money")
print(t.get_identifiers(), t.is_valid(), t.substitute(who="Tim", what="tea"))
bad = string.Template("cost: $")
print(bad.is_valid(), bad.safe_substitute())
try:
    list(f.parse("oops {"))
except ValueError as e:
    print("ValueError:", e)
