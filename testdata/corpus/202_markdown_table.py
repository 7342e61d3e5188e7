from typing import Any, List


def markdown_table(headers: List[str], rows: List[List[Any]], align: str = "") -> str:
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    align = align.ljust(len(headers), "l")

    def fmt(row: List[str]) -> str:
        parts = []
        for text, w, a in zip(row, widths, align):
            parts.append(text.rjust(w) if a == "r" else text.center(w) if a == "c" else text.ljust(w))
        return "| " + " | ".join(parts) + " |"

    sep = []
    for w, a in zip(widths, align):
        dashes = "-" * w
        sep.append(dashes[:-1] + ":" if a == "r" else ":" + dashes[1:-1] + ":" if a == "c" else dashes)
    return "\n".join([fmt(cells[0]), "| " + " | ".join(sep) + " |"] + [fmt(r) for r in cells[1:]])


print(markdown_table(["Language", "Year", "Typing"], [["Python", 1991, "dynamic"], ["Go", 2009, "static"], ["Rust", 2015, "static"]], "lrc"))
print()
print(markdown_table(["k", "v"], [["naïve", 1.5], ["日本", None]]))
