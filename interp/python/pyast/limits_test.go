package pyast

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/syntax"
)

type limitCase struct {
	name      string
	src       string
	msg       string // "" when the input is accepted
	line, col int32  // where the error is (0: not checked)
}

// limitCases are inputs at and past every limit of the parser, and large
// inputs of every kind that must take time linear in their size (sized so
// that linear parsing takes well under the bound of TestLimits on a busy
// machine, while quadratic parsing would take far longer).
func limitCases() []limitCase {
	deep := "expression too deeply nested (more than 200 levels)"
	indent := func(levels int) string {
		var b strings.Builder
		for i := 0; i < levels; i++ {
			b.WriteString(strings.Repeat(" ", i) + "if x:\n")
		}
		return b.String() + strings.Repeat(" ", levels) + "pass\n"
	}
	return []limitCase{
		{"parens_200", "x = " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200), "", 0, 0},
		{"parens_201", "x = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201), "too many nested parentheses", 1, 205},
		{"brackets_100000", strings.Repeat("[", 100000), "too many nested parentheses", 1, 201},
		{"mixed_brackets_100000", strings.Repeat("([{", 40000), "too many nested parentheses", 1, 201},
		{"unary_200", "x = " + strings.Repeat("-", 200) + "1", "", 0, 0},
		{"unary_100000", "x = " + strings.Repeat("-", 100000) + "1", deep, 1, 205},
		{"not_100000", "x = " + strings.Repeat("not ", 100000) + "x", deep, 1, 805},
		{"lambda_100000", "f = " + strings.Repeat("lambda: ", 100000) + "1", deep, 1, 1613},
		{"power_25000", "x = 2" + strings.Repeat(" ** 2", 25000), deep, 1, 1007},
		{"ifexp_25000", "x = " + strings.Repeat("a if b else ", 25000) + "c", deep, 1, 2417},
		{"parens_and_unary", "x = " + strings.Repeat("(-", 150) + "1" + strings.Repeat(")", 150), deep, 1, 206},
		{"await_parens", "async def f():\n    x = " + strings.Repeat("await (", 150) + "y" + strings.Repeat(")", 150), deep, 2, 709},
		{"fstring_field_parens", "s = f'{" + strings.Repeat("(", 250) + "x" + strings.Repeat(")", 250) + "}'", "f-string: too many nested parenthesis", 1, 208},
		{"fstring_inside_parens", "x = " + strings.Repeat("(", 150) + "f'{" + strings.Repeat("(", 60) + "x" + strings.Repeat(")", 60) + "}'" + strings.Repeat(")", 150), "f-string: " + deep, 1, 207},
		{"indent_99", indent(99), "", 0, 0},
		{"indent_100", indent(100), "too many levels of indentation", 101, 1},
		{"indent_1000", indent(1000), "too many levels of indentation", 101, 1},
		{"decimal_4300_digits", "x = " + strings.Repeat("7", 4300), "", 0, 0},
		{"decimal_4301_digits", "x = " + strings.Repeat("7", 4301), "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.", 1, 5},
		// Large inputs that are accepted: each must parse quickly.
		{"hex_literal_1MB", "x = 0x" + strings.Repeat("f", 1<<20), "", 0, 0},
		{"binary_literal_1MB", "x = 0b" + strings.Repeat("1", 1<<20), "", 0, 0},
		{"string_1MB", "s = '" + strings.Repeat("a\\n", 1<<18) + "'", "", 0, 0},
		{"fstring_20000_fields", "s = f'" + strings.Repeat("{x}-", 20000) + "'", "", 0, 0},
		{"triple_fstring_lines", "s = f'''" + strings.Repeat("{x}\n", 50000) + "'''", "", 0, 0},
		{"sum_50000_terms", "x = a" + strings.Repeat(" + a", 50000), "", 0, 0},
		{"compare_50000", "x = a" + strings.Repeat(" < a", 50000), "", 0, 0},
		{"attributes_50000", "x = a" + strings.Repeat(".b", 50000), "", 0, 0},
		{"calls_50000", "x = f" + strings.Repeat("()", 50000), "", 0, 0},
		{"lines_25000", strings.Repeat("x = 1\n", 25000), "", 0, 0},
		{"match_calls_20000", strings.Repeat("match(x)\n", 20000), "", 0, 0},
		{"with_parens_199", "with " + strings.Repeat("(", 199) + "a" + strings.Repeat(")", 199) + " as b:\n    pass\n", "", 0, 0},
		{"list_50000", "x = [" + strings.Repeat("1, ", 50000) + "]", "", 0, 0},
		{"comment_1MB", "# " + strings.Repeat("x", 1<<20) + "\nx = 1", "", 0, 0},
		{"unicode_line", "s = '" + strings.Repeat("é", 1<<18) + "' + x y", "invalid syntax", 1, 262156},
	}
}

// TestLimits checks every limit of the parser: what is at the limit is
// accepted, what is past it gets a clear error where it went too far,
// and every input, however large, is read in well under a second.
func TestLimits(t *testing.T) {
	for _, tc := range limitCases() {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("x.py", tc.src)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var se syntax.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a syntax.Error", err)
			}
			if se.Msg != tc.msg {
				t.Errorf("message %q, want %q", se.Msg, tc.msg)
			}
			if tc.line != 0 && (se.Pos.Line != tc.line || se.Pos.Col != tc.col) {
				t.Errorf("at %d:%d, want %d:%d", se.Pos.Line, se.Pos.Col, tc.line, tc.col)
			}
		})
	}
}
