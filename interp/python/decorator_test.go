package python

import (
	"testing"

	"go.starlark.net/syntax"
)

// TestDecoratorLowering: which defs become Functions. A program without
// decorators or function attributes lowers its defs to bare Starlark
// functions, so that it pays nothing for them.
func TestDecoratorLowering(t *testing.T) {
	tests := []struct {
		code    string
		wrapped bool
	}{
		{"def f(x):\n    return x\nprint(f(1))", false},
		{"def f(x: int) -> int:\n    return x\nprint(f(1))", false},
		{"def f(x):\n    return x\nprint(f.__name__, f.__doc__)", false},
		{"@d\ndef f():\n    pass", true},
		{"def f():\n    pass\nf.calls = 0", true},
		{"def f():\n    pass\nsetattr(f, 'x', 1)", true},
		{"import inspect\ndef f(x: int):\n    pass", true},
		{"import inspect\ndef f(x):\n    pass", false},
		{"def f():\n    pass\nprint(f.__qualname__)", true},
	}
	for _, tc := range tests {
		f, err := Parse(tc.code)
		if err != nil {
			t.Fatalf("%q: %v", tc.code, err)
		}
		got := false
		syntax.Walk(f, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.Ident); ok && id.Name == "__ot_func" {
				got = true
			}
			return true
		})
		if got != tc.wrapped {
			t.Errorf("%q: made a Function %v, want %v", tc.code, got, tc.wrapped)
		}
	}
}
