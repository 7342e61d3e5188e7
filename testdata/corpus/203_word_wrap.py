def wrap(text: str, width: int) -> list:
    """Greedy word wrap; words longer than width are split."""
    lines, current = [], ""
    for word in text.split():
        while len(word) > width:
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


text = ("Onetool runs small programs that agents write. Supercalifragilisticexpialidocious "
        "words get split, and accented words like café or naïveté count as characters.")
for width in (20, 32):
    print(f"--- width {width} ---")
    for line in wrap(text, width):
        print(f"|{line:<{width}}|")
print(wrap("", 10), wrap("a b c", 1))
