# Limit depth when printing deep trees and detect self-reference.
import pprint

tree = {"name": "root", "children": [
    {"name": "a", "children": [{"name": "a1", "children": []}, {"name": "a2", "children": []}]},
    {"name": "b", "children": [{"name": "b1", "children": [{"name": "b1x", "children": []}]}]},
]}
for depth in (1, 2, 3):
    print(f"depth={depth}:", pprint.pformat(tree, depth=depth))
pprint.pprint(tree, width=60, depth=4)

node = {"name": "loop"}
print(pprint.isrecursive(node), pprint.isreadable(node))
print(pprint.saferepr({"z": 1, "a": [3, 2, 1]}))
