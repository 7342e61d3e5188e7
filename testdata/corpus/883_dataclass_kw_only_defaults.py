"""Request objects with kw_only dataclass fields, field(repr=False) and compare=False."""
from dataclasses import dataclass, field, KW_ONLY


@dataclass
class Request:
    method: str
    url: str
    _: KW_ONLY
    headers: dict = field(default_factory=dict)
    timeout: float = 10.0
    token: str = field(default="", repr=False)
    attempt: int = field(default=0, compare=False)


@dataclass(kw_only=True)
class Page:
    number: int = 1
    size: int = 50


r1 = Request("GET", "/users", timeout=2.5, token="secret")
r2 = Request("GET", "/users", timeout=2.5, token="secret", attempt=3)
print(r1)
print(r1 == r2, r1.token)
print(Page(), Page(size=10))
try:
    Request("GET", "/x", {"a": "b"})
except TypeError as e:
    print("TypeError:", e)
try:
    Page(2)
except TypeError as e:
    print("TypeError:", e)
