from typing import Dict


def char_frequency(text: str) -> Dict[str, int]:
    freq: Dict[str, int] = {}
    for ch in text:
        if ch.isspace():
            continue
        freq[ch] = freq.get(ch, 0) + 1
    return freq


text = "Mississippi rivière"
freq = char_frequency(text)
print(freq)

by_count = sorted(freq.items(), key=lambda item: (-item[1], item[0]))
for ch, n in by_count[:5]:
    print(f"{ch}: {'#' * n} ({n})")

print("distinct:", len(freq))
print("most common:", max(freq, key=freq.get))
print("letters only:", "".join(sorted(freq)))
