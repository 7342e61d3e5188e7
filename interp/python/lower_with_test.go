package python

import (
	"fmt"
	"slices"
	"testing"

	"go.starlark.net/syntax"
)

// TestWithLowering: a with statement is one helper call at its line and
// column (each further item one more, at the item), and the code after it
// dispatches control codes only when the body returns, breaks or
// continues.
func TestWithLowering(t *testing.T) {
	tests := []struct {
		code     string
		calls    []string // line:col of each __ot_with call
		dispatch bool     // __ot_r is assigned and tested
	}{
		{"with a:\n    pass", []string{"1:1"}, false},
		{"x = 1\nwith a as b, c as d:\n    pass", []string{"2:1", "2:14"}, false},
		{"with (a as b,\n      c as d):\n    pass", []string{"1:1", "2:7"}, false},
		{"def f():\n    with a:\n        return 1", []string{"2:5"}, true},
		{"for i in x:\n    with a:\n        break", []string{"2:5"}, true},
		{"for i in x:\n    with a:\n        continue", []string{"2:5"}, true},
		{"for i in x:\n    with a:\n        for j in y:\n            break", []string{"2:5"}, false},
		{"with a:\n    with b:\n        pass", []string{"1:1", "2:5"}, false},
	}
	for _, tt := range tests {
		f, err := Parse(tt.code)
		if err != nil {
			t.Errorf("%q: %v", tt.code, err)
			continue
		}
		var calls []string
		dispatch := false
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if id, ok := n.Fn.(*syntax.Ident); ok && id.Name == "__ot_with" {
					calls = append(calls, fmt.Sprintf("%d:%d", id.NamePos.Line, id.NamePos.Col))
				}
			case *syntax.AssignStmt:
				if id, ok := n.LHS.(*syntax.Ident); ok && id.Name == resultVar {
					dispatch = true
				}
			}
			return true
		})
		slices.Sort(calls)
		if !slices.Equal(calls, tt.calls) || dispatch != tt.dispatch {
			t.Errorf("%q: __ot_with at %v, dispatch %v; want %v, %v", tt.code, calls, dispatch, tt.calls, tt.dispatch)
		}
	}
}
