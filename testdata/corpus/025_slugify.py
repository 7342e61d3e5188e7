def slugify(title: str, max_len: int = 40) -> str:
    """Turn a title into a URL slug using only string methods."""
    replacements = {"é": "e", "è": "e", "à": "a", "ü": "u", "ö": "o", "ç": "c", "ñ": "n"}
    out = []
    prev_dash = False
    for ch in title.lower():
        ch = replacements.get(ch, ch)
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            prev_dash = False
        elif not prev_dash:
            out.append("-")
            prev_dash = True
    slug = "".join(out).strip("-")
    return slug[:max_len].rstrip("-")


titles = [
    "Hello, World!",
    "  Python 3.11: What's New?  ",
    "Crème brûlée à la française",
    "Über cool — naïve façade",
    "A very long title that certainly goes past the maximum length allowed",
    "日本語 title",
]
for t in titles:
    print(f"{t!r} -> {slugify(t)!r}")
