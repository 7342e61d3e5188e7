import copy
from collections import deque

doc = {"title": "Draft", "paragraphs": ["Intro"], "tags": {"draft"}}
undo = deque(maxlen=3)
redo = []


def edit(change):
    undo.append(copy.deepcopy(doc))
    redo.clear()
    change(doc)


edit(lambda d: d["paragraphs"].append("Body"))
edit(lambda d: d.update(title="Final"))
edit(lambda d: d["tags"].discard("draft"))
edit(lambda d: d["paragraphs"].append("Outro"))
print("now:", doc["title"], doc["paragraphs"], sorted(doc["tags"]))
print("undo depth:", len(undo), undo.maxlen)

while undo:
    redo.append(copy.deepcopy(doc))
    doc = undo.pop()
    print("undo ->", doc["title"], doc["paragraphs"], sorted(doc["tags"]))

doc = redo.pop()
print("redo ->", doc["title"], doc["paragraphs"])
print("oldest kept state lost 'Intro'-only version:", all(len(s["paragraphs"]) > 1 for s in redo))
