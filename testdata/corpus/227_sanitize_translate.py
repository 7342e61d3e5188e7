# Clean up user-supplied file names with str.translate
UNSAFE = '<>:"/\\|?*'
REPLACE = str.maketrans({c: "_" for c in UNSAFE})
ACCENTS = str.maketrans("àáâäèéêëìíîïòóôöùúûüñç", "aaaaeeeeiiiioooouuuunc")
DROP_CONTROL = {i: None for i in range(32)}


def safe_filename(name: str) -> str:
    name = name.translate(DROP_CONTROL).translate(REPLACE)
    name = name.lower().translate(ACCENTS)
    return name.strip(" .") or "unnamed"


for raw in ['Report: Q1/Q2 "final".pdf', "Résumé – José.docx", "a\tb\nc.txt", "  ...  ", "what?*.png"]:
    print(f"{raw!r:32} -> {safe_filename(raw)!r}")

swap = str.maketrans("()", ")(")
print("(a (b) c)".translate(swap))
print("hello".translate({ord("l"): "L", ord("o"): "0"}))
