def rle_encode(s: str) -> str:
    """Run-length encode: 'aaabcc' -> 'a3b1c2'."""
    if not s:
        return ""
    out = []
    current, count = s[0], 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            out.append(f"{current}{count}")
            current, count = ch, 1
    out.append(f"{current}{count}")
    return "".join(out)


def rle_decode(s: str) -> str:
    result = []
    i = 0
    while i < len(s):
        ch = s[i]
        i += 1
        digits = ""
        while i < len(s) and s[i].isdigit():
            digits += s[i]
            i += 1
        result.append(ch * int(digits))
    return "".join(result)


for text in ["aaabccdddd", "abc", "", "zzzzzzzzzzzz", "ééé日日"]:
    enc = rle_encode(text)
    dec = rle_decode(enc)
    assert dec == text, (text, enc, dec)
    print(repr(text), "->", repr(enc))
print("roundtrip ok")
