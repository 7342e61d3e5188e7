package interp

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// intTextGlobals are builtins to test the limit on int–str conversion
// with: text(x) is str(x) as onetool makes it, setdigits(n) is
// sys.set_int_max_str_digits(n), digits() its getter, pow10(n) is 10**n.
func intTextGlobals() starlark.StringDict {
	g := starlark.StringDict{
		"text": NewBuiltin("text", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			s, err := Str(BudgetOf(th), args[0])
			return starlark.String(s), err
		}),
		"setdigits": NewBuiltin("setdigits", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			n, _ := args[0].(starlark.Int).Int64()
			return starlark.None, BudgetOf(th).SetIntMaxStrDigits(n)
		}),
		"pow10": NewBuiltin("pow10", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			n, _ := args[0].(starlark.Int).Int64()
			return starlark.MakeBigInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)), nil
		}),
		"digits": NewBuiltin("digits", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(BudgetOf(th).IntMaxStrDigits()), nil
		}),
	}
	for k, v := range StdGlobals() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// TestIntText: decimal text of an int is refused past the limit, with
// CPython's text, before a conversion the size alone rules out; the
// digits are those of the magnitude (a sign does not count).
func TestIntText(t *testing.T) {
	pow10 := func(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }
	const toText = "ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
	tests := []struct {
		x    *big.Int
		want string // the text's length, or the error
	}{
		{big.NewInt(-42), "3"},
		{new(big.Int).Sub(pow10(4300), big.NewInt(1)), "4300"},
		{new(big.Int).Neg(new(big.Int).Sub(pow10(4300), big.NewInt(1))), "4301"}, // 4,300 digits and a sign
		{pow10(4300), toText},
		{new(big.Int).Neg(pow10(4300)), toText},
		{pow10(100000), toText},
	}
	for _, tt := range tests {
		text, err := IntText(nil, starlark.MakeBigInt(tt.x))
		got := ""
		if err != nil {
			got = err.Error()
			var ite *IntTextError
			if !errors.As(err, &ite) {
				t.Errorf("%d bits: %T is no *IntTextError", tt.x.BitLen(), err)
			}
		} else {
			got = itoa(len(text))
		}
		if got != tt.want {
			t.Errorf("%d bits: %s, want %s", tt.x.BitLen(), got, tt.want)
		}
	}
	if err := CheckIntText(nil, 4300); err != nil {
		t.Errorf("4300 digits: %v", err)
	}
	err := CheckIntText(nil, 4301)
	if err == nil || err.Error() != "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit" {
		t.Errorf("4301 digits: %v", err)
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// TestSetIntMaxStrDigits: the setter takes 0 and values from 640, with
// CPython's errors otherwise, and lasts for the run that set it.
func TestSetIntMaxStrDigits(t *testing.T) {
	g := intTextGlobals()
	for code, want := range map[string]string{
		"setdigits(0)\nlen(text(pow10(5001)))": "5002",
		"setdigits(640)\ndigits()":             "640",
		"setdigits(639)":                       "ValueError: maxdigits must be 0 or larger than 640",
		"setdigits(-1)":                        "ValueError: maxdigits must be 0 or larger than 640",
		"setdigits(2147483648)":                "OverflowError: Python int too large to convert to C int",
		"setdigits(700)\ntext(pow10(700))":     "ValueError: Exceeds the limit (700 digits)",
		"digits()":                             "4300",
	} {
		res, err := run(t, code, Options{Predeclared: g})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = res.Text
		}
		if !strings.Contains(got, want) {
			t.Errorf("%q: %s, want %s", code, got, want)
		}
	}
}

// TestIntMaxStrDigitsLastsForTheSession: a session's inputs share the
// limit one of them set; a run of its own, and another session, do not
// see it; Reset forgets it.
func TestIntMaxStrDigitsLastsForTheSession(t *testing.T) {
	g := intTextGlobals()
	ctx := context.Background()
	s := NewSession(g, "")
	if _, err := s.Run(ctx, "setdigits(0)", Options{}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx, "len(text(pow10(4400)))", Options{})
	if err != nil || res.Text != "4401" {
		t.Fatalf("the next input: %v %v", res, err)
	}
	if res, err := run(t, "digits()", Options{Predeclared: g}); err != nil || res.Text != "4300" {
		t.Errorf("a run of its own: %v %v", res, err)
	}
	other := NewSession(g, "")
	if res, err := other.Run(ctx, "digits()", Options{}); err != nil || res.Text != "4300" {
		t.Errorf("another session: %v %v", res, err)
	}
	s.Reset()
	if res, err := s.Run(ctx, "digits()", Options{}); err != nil || res.Text != "4300" {
		t.Errorf("after Reset: %v %v", res, err)
	}
}

// TestResultOverTheIntTextLimit: a result that is an int too long for
// text is an error that says so, not a text made without the limit.
func TestResultOverTheIntTextLimit(t *testing.T) {
	_, err := run(t, "pow10(4400)", Options{Predeclared: intTextGlobals()})
	want := "the result cannot be shown: ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
