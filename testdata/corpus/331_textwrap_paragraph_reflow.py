# Reflow paragraphs of a text file, keeping blank lines between them.
import textwrap

raw = """The quick brown fox
jumps over the lazy dog. It then runs
away.   Nobody   knows where.

A second paragraph\twith a tab and some
extra     spacing that should collapse.

Short.
"""


def reflow(text: str, width: int) -> str:
    paragraphs = [p for p in text.split("\n\n")]
    out = []
    for p in paragraphs:
        if p.strip():
            out.append(textwrap.fill(" ".join(p.split()), width=width))
    return "\n\n".join(out)


print(reflow(raw, 30))
print("---")
print(textwrap.fill(raw, width=35, fix_sentence_endings=True))
print("---")
print(textwrap.wrap("tab\there", width=20, expand_tabs=True, tabsize=4))
print(textwrap.wrap("  keep spaces  ", width=20, drop_whitespace=False))
