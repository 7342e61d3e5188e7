PAIRS = {")": "(", "]": "[", "}": "{"}


def is_valid(s: str) -> bool:
    stack = []
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in PAIRS:
            if not stack or stack.pop() != PAIRS[ch]:
                return False
    return not stack


def max_depth(s: str) -> int:
    depth = best = 0
    for ch in s:
        if ch == "(":
            depth += 1
            best = max(best, depth)
        elif ch == ")":
            depth -= 1
    return best


cases = ["()", "()[]{}", "(]", "([)]", "{[]}", "", "((", "f(x[0]) + {a: (b)}"]
for c in cases:
    print(f"{c!r:22} {is_valid(c)}")
print(max_depth("(1+(2*3)+((8)/4))+1"), max_depth("no parens"))
assert is_valid("{[()()]}") and not is_valid("}")
