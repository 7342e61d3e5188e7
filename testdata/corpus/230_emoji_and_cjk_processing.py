messages = [
    "Great job 👍👍",
    "東京へようこそ",
    "Ça va? 🙂",
    "Ünïcödé everywhere ✓",
    "한국어 텍스트",
]

for m in messages:
    words = m.split()
    first_word = words[0]
    print(f"{m!r}: len={len(m)} words={len(words)} first={first_word!r} last_char={m[-1]!r}")

def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

for m in messages:
    print(f"[{truncate(m, 8):<8}]")

emoji_count = sum(1 for m in messages for ch in m if ord(ch) >= 0x1F300)
print("emoji:", emoji_count)
print("".join(sorted("ねこいぬ")), "東京"[::-1] + "京東"[1:], "ようこそ".find("こ"))
print([ch for ch in "a1日😀" if ch.isalpha()], "日本語".upper() == "日本語", "ÇA".lower())
