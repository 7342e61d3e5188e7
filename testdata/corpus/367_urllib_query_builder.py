from urllib.parse import urlencode, parse_qs, parse_qsl, urlparse

base = "https://api.example.com/v1/search"
queries = [
    {"q": "machine learning", "lang": "en", "page": 2},
    {"q": "C++ & Rust", "tags": ["systems", "perf"], "limit": 10},
    {"q": "naïve café", "exact": True, "empty": ""},
]

for params in queries:
    flat = urlencode(params)
    multi = urlencode(params, doseq=True)
    print(base + "?" + flat)
    print(base + "?" + multi)
    back = parse_qs(urlparse(base + "?" + multi).query, keep_blank_values=True)
    print(" ", back)

pairs = [("sort", "date"), ("filter", "a"), ("filter", "b"), ("q", "x y")]
qs = urlencode(pairs)
print(qs)
print(parse_qsl(qs))
print(parse_qs(qs))
print(parse_qs("a=1&a=2&b=&c", keep_blank_values=True), parse_qs("a=1&a=2&b=&c"))
try:
    parse_qs("a=1&b=2&c=3", max_num_fields=2)
except ValueError as e:
    print("ValueError:", e)
