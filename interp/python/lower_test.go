package python

import (
	"strings"
	"testing"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The lowering keeps every position the user's: an error in a lowered
// operation or method names the line (and column) where the user wrote it.
func TestLoweredErrorsKeepTheirLine(t *testing.T) {
	tests := []struct{ code, want string }{
		{"x = 1\ny = [1] * 'a'", "line 2: TypeError: can't multiply sequence by non-int of type 'str'"},
		{"x = 1\n\ny = '%d' % 'a'", "line 3: TypeError: %d format: a real number is required, not str"},
		{"def f():\n    return '{}'.format()\nf()", "line 2: IndexError: Replacement index 0 out of range for positional args tuple (in f, called from line 3)"},
		{"x = {}\nx *= 2\n", "line 2: unknown binary op: dict * int"},
		{"'-'.join([1, 2])", "line 1: TypeError: sequence item 0: expected str instance, int found"},
		{"[1].format()", "line 1: AttributeError: 'list' object has no attribute 'format'"},
	}
	for _, tt := range tests {
		_, err := run(t, tt.code, interp.Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v\nwant %s", tt.code, err, tt.want)
		}
	}
}

// The shapes the lowering produces.
func TestLoweringShapes(t *testing.T) {
	tests := []struct{ code, want string }{
		{"a * b", "__ot_mul(a, b)"},
		{"2 * 3", "2 * 3"},
		{"4 * 3", "4 * 3"}, // two int literals: a product of bounded size
		// A name only for loops over range bind is an int of bounded size.
		{"[i * 7 % len(c) + i * i for i in range(n)]", "[i * 7 % len(c) + i * i for i in range(n)]"},
		{"[i * 7 % n for i in xs]", "__ot_compend([__ot_mod(__ot_mul(i, 7), n) for i in __ot_compiter(xs)])"},
		{"[i * 7 for i in range(n) for i in 'ab']", "__ot_compend([__ot_mul(i, 7) for i in range(n) for i in __ot_compiter(\"ab\")])"},
		{"i * 2", "__ot_mul(i, 2)"}, // v = v * 2 would double without end
		{"-1 * n", "-1 * n"},
		{"x * 1", "x * 1"},
		// + and - stay the interpreter's when one side is a small number;
		// otherwise a concatenation is sized and an int held to the
		// digit limit first.
		{"x + 1", "x + 1"},
		{"n - len(xs)", "n - len(xs)"},
		{"t + 0.5", "t + 0.5"},
		{"a + b", "__ot_plus(a, b)"},
		{"a - b", "__ot_sub(a, b)"},
		{"total += x", "total = __ot_iplus(total, x)"},
		{"count += 1", "count += 1"},
		{"v -= w", "v = __ot_isub(v, w)"},
		{"[i + j for i in range(n) for j in range(n)]", "[i + j for i in range(n) for j in range(n)]"},
		{"v << 1", "__ot_lshift(v, 1)"},
		{"s[::-1]", "__ot_stepslice(s, None, None, -1)"},
		{"s[1:n:2]", "__ot_stepslice(s, 1, n, 2)"},
		{"[i << 3 for i in range(n)]", "[i << 3 for i in range(n)]"},
		{"[1 << i for i in range(n)]", "[__ot_lshift(1, i) for i in range(n)]"},
		{"x * 0.5", "x * 0.5"},
		{"s * 3", "__ot_mul(s, 3)"},
		{"x *= y", "x = __ot_mul(x, y)"},
		{"d[k] *= 3", "d[k] = __ot_mul(d[k], 3)"},
		{"f()[0] *= 3", "__ot_t1 = f()\n__ot_t1[0] = __ot_mul(__ot_t1[0], 3)"}, // f is called once, as in Python
		{"'%s' % x", `__ot_mod("%s", x)`},
		{"fmt % x", "__ot_mod(fmt, x)"},                 // fmt may be a str
		{"k in d", "__ot_in(k, d)"},                     // d may be a str, k a non-ASCII one
		{"memo = {}\nk in memo", "memo = ?\nk in memo"}, // show prints no dicts
		{"seen = set()\nseen = [1]\nk not in seen", "seen = set()\nseen = ?\nk not in seen"},
		{"seen = set()\nseen = 'ab'\nk in seen", "seen = set()\nseen = \"ab\"\n__ot_in(k, seen)"},
		{"def set(): return 'x'\nseen = set()\nk in seen", "def set():\n    return \"x\"\nseen = set()\n__ot_in(k, seen)"},
		{"n % 7", "n % 7"},
		{"s.format(1, k=2)", "__ot_format(s, 1, k=2)"},
		{"s.replace('a', 'b')", `__ot_replace(s, "a", "b")`},
		{"xs.append(1)", "xs.append(1)"},
		{"[x * 4 for x in y if x * 3]", "__ot_compend([__ot_mul(x, 4) for x in __ot_compiter(y) if __ot_mul(x, 3)])"},
		{"def f(a=4 * 5):\n    return a * a", "def f(a=4 * 5):\n    return __ot_mul(a, a)"},
		{"f(*args, k=v * 10, **kw)", "f(k=__ot_mul(v, 10), *__ot_star(args), **kw)"}, // *args may be a str
		{"lambda x: x * 10", "lambda x: __ot_mul(x, 10)"},
	}
	for _, tt := range tests {
		f, err := Parse(tt.code)
		if err != nil {
			t.Fatalf("%q: %v", tt.code, err)
		}
		if got := show(f); got != tt.want {
			t.Errorf("%q lowered to\n%s\nwant\n%s", tt.code, got, tt.want)
		}
	}
}

// show prints a lowered file back as source, enough for the shapes above.
func show(f *syntax.File) string {
	var lines []string
	for _, s := range f.Stmts {
		lines = append(lines, stmt(s, ""))
	}
	return strings.Join(lines, "\n")
}

func stmt(s syntax.Stmt, indent string) string {
	switch s := s.(type) {
	case *syntax.ExprStmt:
		return indent + expr(s.X)
	case *syntax.AssignStmt:
		return indent + expr(s.LHS) + " " + s.Op.String() + " " + expr(s.RHS)
	case *syntax.ReturnStmt:
		return indent + "return " + expr(s.Result)
	case *syntax.DefStmt:
		var params []string
		for _, p := range s.Params {
			params = append(params, expr(p))
		}
		out := indent + "def " + s.Name.Name + "(" + strings.Join(params, ", ") + "):"
		for _, b := range s.Body {
			out += "\n" + stmt(b, indent+"    ")
		}
		return out
	}
	return indent + "?"
}

func expr(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Ident:
		return e.Name
	case *syntax.Literal:
		if s, ok := e.Value.(string); ok {
			return `"` + s + `"`
		}
		return e.Raw
	case *syntax.CallExpr:
		var args []string
		for _, a := range e.Args {
			args = append(args, expr(a))
		}
		return expr(e.Fn) + "(" + strings.Join(args, ", ") + ")"
	case *syntax.BinaryExpr:
		if e.Op == syntax.EQ {
			return expr(e.X) + "=" + expr(e.Y)
		}
		return expr(e.X) + " " + e.Op.String() + " " + expr(e.Y)
	case *syntax.UnaryExpr:
		return e.Op.String() + expr(e.X)
	case *syntax.DotExpr:
		return expr(e.X) + "." + e.Name.Name
	case *syntax.IndexExpr:
		return expr(e.X) + "[" + expr(e.Y) + "]"
	case *syntax.Comprehension:
		out := "[" + expr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				out += " for " + expr(c.Vars) + " in " + expr(c.X)
			case *syntax.IfClause:
				out += " if " + expr(c.Cond)
			}
		}
		return out + "]"
	case *syntax.LambdaExpr:
		var params []string
		for _, p := range e.Params {
			params = append(params, expr(p))
		}
		return "lambda " + strings.Join(params, ", ") + ": " + expr(e.Body)
	}
	return "?"
}
