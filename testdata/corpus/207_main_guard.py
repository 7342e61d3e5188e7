"""Command-style script: count word lengths in a paragraph."""
from typing import Dict, List

PARAGRAPH = "Agents write Python like this all the time, with a main function and a guard."


def lengths(words: List[str]) -> Dict[int, List[str]]:
    out: Dict[int, List[str]] = {}
    for w in words:
        out.setdefault(len(w), []).append(w)
    return dict(sorted(out.items()))


def main() -> None:
    words = [w.strip(".,").lower() for w in PARAGRAPH.split()]
    for n, ws in lengths(words).items():
        print(f"{n:>2}: {', '.join(ws)}")
    print("words:", len(words))


if __name__ == "__main__":
    main()
