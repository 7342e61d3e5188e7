def shift_char(ch: str, shift: int) -> str:
    if "a" <= ch <= "z":
        return chr((ord(ch) - ord("a") + shift) % 26 + ord("a"))
    if "A" <= ch <= "Z":
        return chr((ord(ch) - ord("A") + shift) % 26 + ord("A"))
    return ch


def caesar(text: str, shift: int) -> str:
    return "".join(shift_char(c, shift) for c in text)


plain = "Hello, World! Zebra-42"
secret = caesar(plain, 3)
print(secret)
print(caesar(secret, -3))
assert caesar(caesar(plain, 13), 13) == plain

for k in (1, 13, 25, 26):
    print(k, caesar("abcxyz", k))
