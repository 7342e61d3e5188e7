from urllib.parse import quote, quote_plus, unquote, unquote_plus

paths = ["reports/2024 Q1/summary.pdf", "data/naïve café.csv", "a&b=c?d#e", "100% done", "~user/.config"]
for p in paths:
    q = quote(p)
    print(f"{p:<30} {q:<40} {quote(p, safe='')}")
    assert unquote(q) == p

search = ["hello world", "C++ tips", "a/b & c=d", "日本語"]
for s in search:
    q = quote_plus(s)
    print(f"{s:<12} {q:<32} {unquote_plus(q) == s}")

print(unquote("%E6%97%A5%E6%9C%AC"), unquote("bad%zz%"), unquote("%C3%28"))
print(quote("a b", safe=" "), quote("/path/", safe=""), quote(b"\x00\xff"))
