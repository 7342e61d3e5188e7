package pyrt

import (
	"strings"
	"testing"
)

// TestTypingNames: the names of typing work where Python lets a program
// use them: TypeVar and NewType called, Generic and the rest subscripted
// in annotations, cast and TYPE_CHECKING; instantiating a type is a
// TypeError, as in Python.
func TestTypingNames(t *testing.T) {
	tests := []struct{ code, want string }{
		{"from typing import TypeVar, List, Optional\nT = TypeVar('T')\ndef first(xs: List[T]) -> Optional[T]:\n    return xs[0] if xs else None\n[first([3, 4]), first([])]", "[3,null]"},
		{"from typing import TypeVar, Generic\nK = TypeVar('K', bound=int)\nG = Generic[K]\n1", "1"},
		{"from typing import NewType\nUserId = NewType('UserId', int)\nu = UserId(42)\n[u, u + 1, type(u) == int]", "[42,43,true]"},
		{"from typing import cast, Dict\ncast(Dict[str, int], {'a': 1})", `{"a":1}`},
		{"import typing\n[typing.cast('List[int]', [1]), typing.TYPE_CHECKING]", "[[1],false]"},
		{"from typing import Callable\nf: Callable[[int], str] = str\nf(5)", "5"},
		{"from typing import TypeVar\ntry:\n    TypeVar()\nexcept TypeError:\n    r = 'TypeError'\nr", "TypeError"},
		{"from typing import List\ntry:\n    List()\nexcept TypeError as e:\n    r = str(e)\nr", "Cannot instantiate typing.List; use the builtin type (list(), dict(), …) instead"},
	}
	for _, tt := range tests {
		if got := runText(t, tt.code); got != tt.want {
			t.Errorf("%s\n= %s, want %s", strings.ReplaceAll(tt.code, "\n", "; "), got, tt.want)
		}
	}
}
