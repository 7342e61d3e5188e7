# A recursive walk that guards against runaway depth by catching
# RecursionError, as agents write around tree-shaped data.
def depth(node):
    if not node:
        return 0
    return 1 + max(depth(child) for child in node)


def chain(n):
    node = []
    for _ in range(n):
        node = [node]
    return node


def runaway(n):
    return runaway(n + 1)


print(depth(chain(50)))
try:
    runaway(0)
except RecursionError as e:
    print("RecursionError:", e)
except Exception as e:
    print("other", type(e).__name__)
print(isinstance(RecursionError(), RuntimeError))
