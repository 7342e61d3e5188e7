for ch in "Aaz0 ~é€":
    code = ord(ch)
    print(f"{ch!r:5} {code:>5} {code:#06x} {code:#b}")

print([chr(c) for c in range(ord("a"), ord("f") + 1)])
print("".join(chr(ord("A") + i) for i in range(26)))

def rot47(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if 33 <= o <= 126:
            out.append(chr(33 + (o - 33 + 47) % 94))
        else:
            out.append(ch)
    return "".join(out)

msg = "Hello, World!"
print(rot47(msg), rot47(rot47(msg)) == msg)
print(chr(233), chr(0x4E2D), ord("中"), chr(128013))
