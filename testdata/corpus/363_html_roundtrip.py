import html

samples = [
    "plain",
    "a < b > c",
    "Fish & Chips",
    "She said \"yes\"",
    "it's",
    "&amp; already escaped",
    "<img src='x' onerror=\"alert(1)\">",
    "emoji 🎉 and accents àéî",
]

for s in samples:
    full = html.escape(s)
    text_only = html.escape(s, quote=False)
    back = html.unescape(full)
    print(f"{full:<60} {back == s} {full == text_only}")

# Escaping twice is not idempotent; unescaping twice can over-decode.
once = html.escape("&lt;")
twice = html.escape(once)
print(once, twice, html.unescape(twice), html.unescape(html.unescape(twice)))
print(html.unescape("&amp;lt;"), html.unescape(html.unescape("&amp;lt;")))
