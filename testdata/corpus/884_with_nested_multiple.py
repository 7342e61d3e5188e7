"""Several context managers in one with statement, parenthesised, exiting in reverse order."""


class Tag:
    depth = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("  " * Tag.depth + f"<{self.name}>")
        Tag.depth += 1
        return self.name

    def __exit__(self, et, ev, tb):
        Tag.depth -= 1
        print("  " * Tag.depth + f"</{self.name}>")


with Tag("html"), Tag("body") as body:
    with (
        Tag("div") as d,
        Tag("p") as p,
    ):
        print("  " * Tag.depth + f"text in {p} in {d} in {body}")
    print("  " * Tag.depth + "after div")

for i in range(3):
    with Tag(f"li{i}"):
        if i == 1:
            continue
        print("  " * Tag.depth + "item")
print(Tag.depth)
