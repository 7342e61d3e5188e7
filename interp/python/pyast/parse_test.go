package pyast

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// sx writes an expression as a small s-expression with the positions the
// lowering uses, for table tests: leaves as value@line:col, operators as
// (op@line:col operands…). TestCPythonTrees checks the whole tree; these
// tables check what it cannot see (positions inside f-strings, Debug,
// the Go types of constants).
func sx(e Expr) string {
	at := func(p Pos) string { return fmt.Sprintf("@%d:%d", p.Line, p.Col) }
	list := func(es []Expr) string {
		var parts []string
		for _, x := range es {
			parts = append(parts, sx(x))
		}
		return strings.Join(parts, " ")
	}
	switch x := e.(type) {
	case nil:
		return "nil"
	case *Name:
		return x.Id + at(x.NamePos)
	case *Constant:
		return fmt.Sprintf("%s:%T%s", constant(x.Value), x.Value, at(x.Start))
	case *BinOp:
		return fmt.Sprintf("(%s%s %s %s)", x.Op, at(x.OpPos), sx(x.Left), sx(x.Right))
	case *UnaryOp:
		return fmt.Sprintf("(%s%s %s)", x.Op, at(x.OpPos), sx(x.Operand))
	case *BoolOp:
		return fmt.Sprintf("(%s%s %s)", x.Op, at(x.OpPos), list(x.Values))
	case *Compare:
		s := "(cmp " + sx(x.Left)
		for i, op := range x.Ops {
			s += fmt.Sprintf(" %s%s %s", op, at(x.OpPos[i]), sx(x.Comparators[i]))
		}
		return s + ")"
	case *IfExp:
		return fmt.Sprintf("(if%s %s %s %s)", at(x.If), sx(x.Test), sx(x.Body), sx(x.Orelse))
	case *Call:
		s := "(call " + sx(x.Func)
		if len(x.Args) > 0 {
			s += " " + list(x.Args)
		}
		for _, k := range x.Keywords {
			s += fmt.Sprintf(" %s=%s", k.Arg, sx(k.Value))
		}
		return s + ")"
	case *Attribute:
		return fmt.Sprintf("(. %s %s%s)", sx(x.Value), x.Attr, at(x.AttrPos))
	case *Subscript:
		return fmt.Sprintf("(index %s %s)", sx(x.Value), sx(x.Index))
	case *JoinedStr:
		return "(f " + list(x.Values) + ")"
	case *FormattedValue:
		s := "{" + sx(x.Value)
		if x.Debug != "" {
			s += fmt.Sprintf(" debug=%q", x.Debug)
		}
		if x.Conversion != 0 {
			s += " !" + string(x.Conversion)
		}
		if x.FormatSpec != nil {
			s += " :" + sx(x.FormatSpec)
		}
		return s + "}" + at(x.Lbrace)
	case *Lambda:
		return "(lambda " + sx(x.Body) + ")"
	case *NamedExpr:
		return fmt.Sprintf("(:= %s %s)", sx(x.Target), sx(x.Value))
	case *Starred:
		return "(* " + sx(x.Value) + ")"
	case *Tuple:
		return "(tuple " + list(x.Elts) + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

// TestExpressions checks operator precedence and associativity, and the
// positions of operators and operands.
func TestExpressions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"-2 ** 2", "(-@1:1 (**@1:4 2:int64@1:2 2:int64@1:7))"},
		{"2 ** -1", "(**@1:3 2:int64@1:1 (-@1:6 1:int64@1:7))"},
		{"a ** b ** c", "(**@1:3 a@1:1 (**@1:8 b@1:6 c@1:11))"},
		{"a - b - c", "(-@1:7 (-@1:3 a@1:1 b@1:5) c@1:9)"},
		{"a + b * c", "(+@1:3 a@1:1 (*@1:7 b@1:5 c@1:9))"},
		{"not a == b", "(not@1:1 (cmp a@1:5 ==@1:7 b@1:10))"},
		{"a < b is not c not in d", "(cmp a@1:1 <@1:3 b@1:5 is not@1:7 c@1:14 not in@1:16 d@1:23)"},
		{"a or b and not c", "(or@1:3 a@1:1 (and@1:8 b@1:6 (not@1:12 c@1:16)))"},
		{"a if b else c if d else e", "(if@1:3 b@1:6 a@1:1 (if@1:15 d@1:18 c@1:13 e@1:25))"},
		{"~a | b & c ^ d << 1", "(|@1:4 (~@1:1 a@1:2) (^@1:12 (&@1:8 b@1:6 c@1:10) (<<@1:16 d@1:14 1:int64@1:19)))"},
		{"f(x)(y).z[0]", "(index (. (call (call f@1:1 x@1:3) y@1:6) z@1:9) 0:int64@1:11)"},
		{"(y := f(x))", "(:= y@1:2 (call f@1:7 x@1:9))"},
		{"f(*a, k=1, **b)", "(call f@1:1 (* a@1:4) k=1:int64@1:9 =b@1:14)"},
		{"lambda: (yield)", "(lambda <*pyast.Yield>)"},
		{"a @ b // c % d", "(%@1:12 (//@1:7 (@@1:3 a@1:1 b@1:5) c@1:10) d@1:14)"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			if got := sx(parseExpr(t, tc.src)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// parseExpr parses src, which must be one expression statement.
func parseExpr(t *testing.T, src string) Expr {
	t.Helper()
	m, err := Parse("x.py", src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if len(m.Body) != 1 {
		t.Fatalf("%q: %d statements", src, len(m.Body))
	}
	s, ok := m.Body[0].(*ExprStmt)
	if !ok {
		t.Fatalf("%q: a %T, not an expression", src, m.Body[0])
	}
	return s.Value
}

// TestLiterals checks the value and Go type of every kind of literal.
func TestLiterals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"1_000", "1000:int64@1:1"},
		{"0x_ff", "255:int64@1:1"},
		{"0o17", "15:int64@1:1"},
		{"0B1010", "10:int64@1:1"},
		{"9223372036854775807", "9223372036854775807:int64@1:1"},
		{"9223372036854775808", "9223372036854775808:*big.Int@1:1"},
		{"0x1" + strings.Repeat("0", 20), "1208925819614629174706176:*big.Int@1:1"},
		{"1.", "f:3ff0000000000000:float64@1:1"},
		{".5", "f:3fe0000000000000:float64@1:1"},
		{"1_0.2_5e-1_0", "f:3e119bff678e358c:float64@1:1"},
		{"1e400", "f:7ff0000000000000:float64@1:1"},
		{"True", "True:bool@1:1"},
		{"None", "None:<nil>@1:1"},
		{"...", "Ellipsis:pyast.Ellipsis@1:1"},
		{`'a\tb\\\'\"\a\b\f\v\r\0\101\x41\u00e9\U0001F600'`, `'a\x09b\\\'"\x07\x08\x0c\x0b\x0d\x00AA\xe9\U0001f600':string@1:1`},
		{`'\N{EM DASH}\N{latin small letter e with acute}'`, `'\u2014\xe9':string@1:1`},
		{`r'a\tb\'' R"\N{x}"`, `'a\\tb\\\'\\N{x}':string@1:1`},
		{`u'x' U"y"`, `'xy':string@1:1`},
		{"'a\\\nb'", `'ab':string@1:1`},
		{`"unknown \q escape"`, `'unknown \\q escape':string@1:1`},
		{"'''a\n'b'\n'''", `'a\x0a\'b\'\x0a':string@1:1`},
		{`b'\x00a\n' Rb'\x' bR"\n"`, `b'\x00a\x0a\\x\\n':pyast.Bytes@1:1`},
		{`"é" 'x'`, `'\xe9x':string@1:1`},
	} {
		t.Run(tc.src, func(t *testing.T) {
			if got := sx(parseExpr(t, tc.src)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestFStrings checks f-strings: their parts, and that the expressions
// in them have their own place in the source, which errors at run time
// point at.
func TestFStrings(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`f"a{x}b"`, `(f 'a':string@1:3 {x@1:5}@1:4 'b':string@1:7)`},
		{`f"{x!r:>{w}}"`, `(f {x@1:4 !r :(f '>':string@1:8 {w@1:10}@1:9)}@1:3)`},
		{`f"{x:{w}.{p}f}"`, `(f {x@1:4 :(f {w@1:7}@1:6 '.':string@1:9 {p@1:11}@1:10 'f':string@1:13)}@1:3)`},
		{`f"{x = }"`, `(f {x@1:4 debug="x = " !r}@1:3)`},
		{`f"{x=:>4}"`, `(f {x@1:4 debug="x=" :(f '>4':string@1:7)}@1:3)`},
		{`f"{x=!s}"`, `(f {x@1:4 debug="x=" !s}@1:3)`},
		{`f"{{a}} {{"`, `(f '{a} {':string@1:3)`},
		{`f'{d["k"]}'`, `(f {(index d@1:4 'k':string@1:6)}@1:3)`},
		{`f"{a if b else c}"`, `(f {(if@1:6 b@1:9 a@1:4 c@1:16)}@1:3)`},
		{`f"{(lambda: 1)()}"`, `(f {(call (lambda 1:int64@1:13))}@1:3)`},
		{"f'''\n  {x}\n{y!a}'''", `(f '\x0a  ':string@1:5 {x@2:4}@2:3 '\x0a':string@2:6 {y@3:2 !a}@3:1)`},
		{`"é" f"{é}" 'z'`, `(f '\xe9':string@1:2 {é@1:8}@1:7 'z':string@1:13)`},
		{`f"{x:{'a'}}"`, `(f {x@1:4 :(f {'a':string@1:7}@1:6)}@1:3)`},
		{`rf"\n{x}" FR'\{y}'`, `(f '\\n':string@1:4 {x@1:7}@1:6 '\\':string@1:14 {y@1:16}@1:15)`},
	} {
		t.Run(tc.src, func(t *testing.T) {
			if got := sx(parseExpr(t, tc.src)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestStatements checks the kind of statement each form gives, soft
// keywords included.
func TestStatements(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"match = re.match(p, s)", "*pyast.Assign"},
		{"match(x)", "*pyast.ExprStmt"},
		{"match x:\n    case [1, *rest] if rest:\n        pass\n    case _:\n        pass", "*pyast.Match"},
		{"case = 1", "*pyast.Assign"},
		{"_ = 1", "*pyast.Assign"},
		{"x: int = 1", "*pyast.AnnAssign"},
		{"x: int", "*pyast.AnnAssign"},
		{"x += 1", "*pyast.AugAssign"},
		{"a = b = c", "*pyast.Assign"},
		{"@d\nasync def f(a, /, b=1, *c, d, **e) -> int: pass", "*pyast.FunctionDef"},
		{"class C(B, metaclass=M): pass", "*pyast.ClassDef"},
		{"try:\n    pass\nexcept* E:\n    pass", "*pyast.Try"},
		{"from ..a import (b as c, d,)", "*pyast.ImportFrom"},
		{"from . import *", "*pyast.ImportFrom"},
		{"with (a as b, c):\n    pass", "*pyast.With"},
		{"raise E from None", "*pyast.Raise"},
		{"del a, b[0]", "*pyast.Delete"},
		{"global a, b", "*pyast.Global"},
		{"x = 1 \\\n  + 2  # comment", "*pyast.Assign"},
		{"\tif x:\n", "error"}, // unexpected indent
	} {
		t.Run(tc.src, func(t *testing.T) {
			m, err := Parse("x.py", tc.src)
			got := "error"
			if err == nil {
				got = fmt.Sprintf("%T", m.Body[0])
			}
			if got != tc.want {
				t.Errorf("got %s (%v), want %s", got, err, tc.want)
			}
		})
	}
}

// TestIndentation checks INDENT and DEDENT: tabs count to the next
// multiple of 8, blank lines and comments do not count, and a last line
// may end without a newline or with CRLF.
func TestIndentation(t *testing.T) {
	for _, tc := range []struct {
		src   string
		stmts int // top-level statements
	}{
		{"if x:\n\ty = 1\n\tz = 2\nw = 3", 2},
		{"if x:\n\tif y:\n\t\tz = 2\n\tw = 3\n", 1},
		{"if x:\n    y = 1\n\n  # c\n    z = 2\n", 1},
		{"if x:\r\n    y = 1\r\nz = 2\r\n", 2},
		{"if x:\r    y = 1\rz = 2", 2},
		{"def f():\n    return (1,\n2)\nx = 1", 2},
	} {
		m, err := Parse("x.py", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if len(m.Body) != tc.stmts {
			t.Errorf("%q: %d statements, want %d", tc.src, len(m.Body), tc.stmts)
		}
	}
}

// TestErrors checks the errors where onetool deliberately says something
// else than CPython (see testdata/errors.known) or puts it elsewhere:
// unsupported features are named, and errors inside f-strings point at
// the character at fault.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"x = 1j", "1:5: complex numbers are not supported"},
		{"z = 3 + 4.5e1J", "1:9: complex numbers are not supported"},
		{`x = '\ud800'`, `1:6: \ud800: a lone surrogate is not supported (strings here are UTF-8); write the character itself`},
		{`x = '\N{NO SUCH NAME}'`, `1:6: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-15: unknown Unicode character name`},
		{"x = b'a' 'b'", "1:10: cannot mix bytes and nonbytes literals"},
		{"x = b'é'", "1:5: bytes can only contain ASCII literal characters"},
		{"x = 1\x00", "1:6: source code cannot contain null bytes"},
		{"s = f'{a'", "1:9: f-string: expecting '}'"},
		{"s = f'a}b'", "1:8: f-string: single '}' is not allowed"},
		{`s = f'{a\n}'`, "1:9: f-string expression part cannot include a backslash"},
		{"s = f'{}'", "1:8: f-string: empty expression not allowed"},
		{"s = f'{a!x}'", "1:10: f-string: invalid conversion character: expected 's', 'r', or 'a'"},
		{"s = f'{a b}'", "1:8: f-string: invalid syntax. Perhaps you forgot a comma?"},
		{"x = 1\ny = f'''\n  {a +}'''", "3:7: f-string: invalid syntax"},
		{"s = f'{a:{b:{c}}}'", "1:13: f-string: expressions nested too deeply"},
		{"mcp__ot__run demo.foo(...)", "1:14: invalid syntax"},
		{"if (x) { y = 1 }", "1:10: invalid syntax. Maybe you meant '==' or ':=' instead of '='?"},
		{"x = {'a': 1, 'b'}", "1:16: ':' expected after dictionary key"},
		{"try:\n    a\nexcept (, B):\n    c", "3:9: invalid syntax"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			_, err := Parse("x.py", tc.src)
			var se syntax.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a syntax.Error", err)
			}
			if got := fmt.Sprintf("%d:%d: %s", se.Pos.Line, se.Pos.Col, se.Msg); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			if se.Pos.Filename() != "x.py" {
				t.Errorf("file %q, want x.py", se.Pos.Filename())
			}
		})
	}
}

// TestTabs checks that indentation whose meaning depends on the width of
// a tab is refused, as in CPython.
func TestTabs(t *testing.T) {
	_, err := Parse("x.py", "if x:\n\ty = 1\n        z = 2\n")
	var se syntax.Error
	if !errors.As(err, &se) || se.Msg != "inconsistent use of tabs and spaces in indentation" || se.Pos.Line != 3 {
		t.Errorf("got %v, want inconsistent use of tabs and spaces at line 3", err)
	}
}
