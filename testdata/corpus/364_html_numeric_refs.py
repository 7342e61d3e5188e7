import html
import re

text = ("Quotes: &#8220;smart&#8221; &#x2018;single&#x2019; | dashes: &#8211; &#8212; | "
        "legacy: &#150; &#151; &#153; &#128; | controls: [&#0;] [&#1;] [&#127;] | "
        "surrogate: &#xD83D; | too big: &#x110000; | no semicolon: &#65&#66&#67 | "
        "hex: &#x48;&#x49; | named: &Alpha;&beta;&Gamma; &frac12;")

refs = re.findall(r"&#[xX]?[0-9a-fA-F]+;?", text)
print(len(refs), "numeric references")
decoded = {}
for ref in refs:
    decoded[ref] = html.unescape(ref)
for ref, value in list(decoded.items())[:12]:
    print(f"{ref:<10} -> {value!r} {[hex(ord(c)) for c in value]}")
print(html.unescape(text))
print(len(text), len(html.unescape(text)))
