package python

import (
	"strings"
	"testing"
)

// In a program that may hold instances, a comparison goes to __ot_cmp or
// __ot_eq unless both operands are plain numbers (a range loop's int, a
// literal, int arithmetic of those), and x op= y to __ot_iop with its
// operands as arguments (no tuple made per statement).
func TestLoweringInClassPrograms(t *testing.T) {
	tests := []struct{ code, want string }{
		{"[i < 5 for i in range(9)]", "[i < 5 for i in range(9)]"},
		{"[i % 3 == 2 for i in range(9)]", "[i % 3 == 2 for i in range(9)]"},
		{"[-i >= 2.5 for i in range(9)]", "[-i >= 2.5 for i in range(9)]"},
		{"[i * 2 != 7 for i in range(9)]", "[i * 2 != 7 for i in range(9)]"},
		// Not plain: a name bound otherwise, a float made by arithmetic
		// (NaN is equal to nothing), a bool, a range of the program's.
		{"[x < i for i in range(9)]", `[__ot_cmp("<", x, i) for i in range(9)]`},
		{"[i < 5 for i in xs]", `__ot_compend([__ot_cmp("<", i, 5) for i in __ot_compiter(xs)])`},
		{"[i / 2 == 1 for i in range(9)]", "[__ot_eq(i / 2, 1) for i in range(9)]"},
		{"[i == True for i in range(9)]", "[__ot_eq(i, True) for i in range(9)]"},
		{"[1e308 * 10 == i for i in range(9)]", "[__ot_eq(1e308 * 10, i) for i in range(9)]"},
		{"def range(n):\n    return [C()]\n[i < 5 for i in range(9)]", `[__ot_cmp("<", i, 5) for i in range(9)]`},
		{"o.n += 1", `o.n = __ot_iop(o.n, "+", 1, None)`},
		{"t += x", `t = __ot_iop(t, "+", x, __ot_iplus)`},
		{"t -= x", `t = __ot_iop(t, "-", x, __ot_isub)`},
		{"xs[1:2] += ys", "__ot_iop"},
	}
	for _, tt := range tests {
		code := "class C:\n    pass\n" + tt.code
		f, err := Parse(code)
		if err != nil {
			t.Fatalf("%q: %v", tt.code, err)
		}
		got := show(f)
		if !strings.HasSuffix(got, tt.want) && !(tt.want == "__ot_iop" && strings.Contains(got, tt.want)) {
			t.Errorf("%q lowered to\n%s\nwant it to end with\n%s", tt.code, got, tt.want)
		}
	}
}
