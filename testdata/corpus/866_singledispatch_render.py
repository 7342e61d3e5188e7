"""Rendering values by type with functools.singledispatch, including a user class."""
from functools import singledispatch
from dataclasses import dataclass


@dataclass
class Link:
    text: str
    href: str


@singledispatch
def render(value):
    return f"<span>{value}</span>"


@render.register
def _(value: list):
    return "<ul>" + "".join(f"<li>{render(v)}</li>" for v in value) + "</ul>"


@render.register
def _(value: dict):
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{render(v)}</dd>" for k, v in value.items()) + "</dl>"


@render.register(bool)
def _(value):
    return "yes" if value else "no"


@render.register
def _(value: Link):
    return f'<a href="{value.href}">{value.text}</a>'


print(render(42))
print(render([1, True, "x"]))
print(render({"home": Link("Home", "/"), "ok": False}))
print(render.dispatch(bool) is render.dispatch(int), render.dispatch(str) is render.dispatch(object))
