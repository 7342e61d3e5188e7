import html
from urllib.parse import quote, urlencode

links = [
    ("Search: cats & dogs", "https://example.com/search", {"q": "cats & dogs", "page": 1}),
    ("Docs <v2>", "https://example.com/docs/v2/intro page.html", {}),
    ('The "best" café', "https://example.com/places/café", {"ref": "home"}),
]

items = []
for label, url, params in links:
    scheme, _, rest = url.partition("://")
    host, _, path = rest.partition("/")
    href = f"{scheme}://{host}/{quote(path)}"
    if params:
        href += "?" + urlencode(params)
    items.append(f'  <li><a href="{html.escape(href)}">{html.escape(label)}</a></li>')

print("<ul>")
print("\n".join(items))
print("</ul>")
print(sum(len(i) for i in items), "characters")
print(html.unescape(items[0]))
