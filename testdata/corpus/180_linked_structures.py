# Linked list and tree built from dicts (no classes)
def make_list(values):
    head = None
    for v in reversed(values):
        head = {"value": v, "next": head}
    return head


def to_pylist(node):
    out = []
    while node is not None:
        out.append(node["value"])
        node = node["next"]
    return out


def reverse(node):
    prev = None
    while node:
        node["next"], prev, node = prev, node, node["next"]
    return prev


def insert(tree, value):
    if tree is None:
        return {"value": value, "left": None, "right": None}
    side = "left" if value < tree["value"] else "right"
    tree[side] = insert(tree[side], value)
    return tree


def inorder(tree):
    return [] if tree is None else inorder(tree["left"]) + [tree["value"]] + inorder(tree["right"])


def height(tree):
    return 0 if tree is None else 1 + max(height(tree["left"]), height(tree["right"]))


lst = make_list([1, 2, 3, 4])
print(to_pylist(lst))
print(to_pylist(reverse(lst)))
root = None
for v in [50, 30, 70, 20, 40, 60, 80, 35]:
    root = insert(root, v)
print(inorder(root), height(root))
