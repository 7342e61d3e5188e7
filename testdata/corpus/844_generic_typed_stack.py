"""A Generic[T] stack and a Protocol used only as annotations, the way typed code looks."""
from typing import Generic, TypeVar, Protocol, Optional, List

T = TypeVar("T")


class Sized(Protocol):
    def __len__(self) -> int: ...


class Stack(Generic[T]):
    def __init__(self) -> None:
        self._items: List[T] = []

    def push(self, item: T) -> "Stack[T]":
        self._items.append(item)
        return self

    def pop(self) -> Optional[T]:
        return self._items.pop() if self._items else None

    def peek(self) -> Optional[T]:
        return self._items[-1] if self._items else None

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Stack({self._items})"


def size_of(x: Sized) -> int:
    return len(x)


s: Stack[int] = Stack()
s.push(1).push(2).push(3)
print(s, len(s), s.peek(), size_of(s))
print(s.pop(), s.pop(), s.pop(), s.pop(), s)
words = Stack[str]()
for w in "to be or not".split():
    words.push(w)
print(words, size_of("abc"), Stack.__name__)
