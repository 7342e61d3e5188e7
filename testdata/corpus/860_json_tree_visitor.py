"""Walking a parsed JSON document with a visitor class that collects paths and types."""
import json

DOC = json.loads("""{"user": {"name": "ana", "tags": ["a", "b"], "age": 31},
 "items": [{"id": 1, "price": 9.5}, {"id": 2, "price": null}], "ok": true}""")


class Visitor:
    def visit(self, node, path="$"):
        kind = type(node).__name__
        method = getattr(self, f"visit_{kind}", self.generic)
        return method(node, path)

    def generic(self, node, path):
        pass

    def visit_dict(self, node, path):
        for k in node:
            self.visit(node[k], f"{path}.{k}")

    def visit_list(self, node, path):
        for i, v in enumerate(node):
            self.visit(v, f"{path}[{i}]")


class LeafCollector(Visitor):
    def __init__(self):
        self.leaves = []

    def generic(self, node, path):
        self.leaves.append((path, type(node).__name__))


class NullFinder(Visitor):
    def __init__(self):
        self.nulls = []

    def visit_NoneType(self, node, path):
        self.nulls.append(path)


lc = LeafCollector()
lc.visit(DOC)
for path, kind in lc.leaves:
    print(f"{path:<22}{kind}")
nf = NullFinder()
nf.visit(DOC)
print(nf.nulls, isinstance(nf, Visitor))
