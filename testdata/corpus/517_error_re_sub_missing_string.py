import re

# Normalising whitespace in a few lines; the last call forgets the text.
lines = ["  hello    world ", "tabs\there\tand\tthere", "multi\n\nline"]
for line in lines:
    print(repr(re.sub(r"\s+", " ", line).strip()))
print(re.subn(r"[aeiou]", "*", "education"))
print(re.split(r"[,;]\s*", "a, b;c ,d"))
cleaned = re.sub(r"\s+", " ")
print(cleaned)
