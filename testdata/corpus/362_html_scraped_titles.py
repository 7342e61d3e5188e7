import html
import re

raw_titles = [
    "Caf&eacute; &amp; Bar &mdash; Open Late",
    "5 &lt; 10 &amp;&amp; 10 &gt; 5",
    "<b>Bold</b> move: &quot;Go&quot; vs &#39;Rust&#39;",
    "Price: &pound;10 &#8364;12 &#x24;13",
    "Smile &#128512; &hearts; &copy 2024",
    "Broken &ampersand &unknown; & alone",
    "&nbsp;&nbsp;padded&nbsp;",
]

def clean(title: str) -> str:
    no_tags = re.sub(r"<[^>]+>", "", title)
    text = html.unescape(no_tags)
    return " ".join(text.replace("\xa0", " ").split())

for t in raw_titles:
    c = clean(t)
    print(f"{len(t):>3} -> {len(c):>3}  {c}")

words = {}
for t in raw_titles:
    for w in re.findall(r"[A-Za-zé]+", clean(t).lower()):
        words[w] = words.get(w, 0) + 1
print(sorted(w for w, n in words.items() if len(w) > 3)[:8])
