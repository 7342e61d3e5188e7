# Lay out two columns of wrapped text side by side.
import textwrap

left_text = ("Python's textwrap module breaks paragraphs into lines of a given width, "
             "keeping words whole where it can.")
right_text = ("Hyphenated words such as state-of-the-art or well-known may be split "
              "after a hyphen when a line runs out of room.")

width = 28
left = textwrap.wrap(left_text, width)
right = textwrap.wrap(right_text, width)
rows = max(len(left), len(right))
left += [""] * (rows - len(left))
right += [""] * (rows - len(right))
print("+" + "-" * (width + 2) + "+" + "-" * (width + 2) + "+")
for a, b in zip(left, right):
    print(f"| {a:<{width}} | {b:<{width}} |")
print("+" + "-" * (width + 2) + "+" + "-" * (width + 2) + "+")

print(textwrap.wrap(right_text, 12))
print(textwrap.wrap(right_text, 12, break_on_hyphens=False))
