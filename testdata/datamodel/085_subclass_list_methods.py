# A list subclass keeps its type under its own methods; slicing, + and copy()
# return plain lists; isinstance and repr behave as list's.
class Stack(list):
    def push(self, x):
        self.append(x)
        return self

    def peek(self):
        return self[-1]


s = Stack([1, 2])
s.push(3)
print(s, type(s).__name__, s.peek(), len(s), isinstance(s, list))
print(type(s[:2]).__name__, type(s + [4]).__name__, type(s.copy()).__name__, type(s * 2).__name__)
s += [9]
print(type(s).__name__, s, s == [1, 2, 3, 9])
