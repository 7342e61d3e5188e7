package pyrt

import (
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// update regenerates the expected outputs of the differential tests with
// CPython: go test ./interp/pyrt -run Differential -update
var update = flag.Bool("update", false, "regenerate testdata/*.want with python3")

// testGlobals are the names a program sees in these tests: the library
// and this package's builtins.
func testGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range interp.StdGlobals() {
		g[k] = v
	}
	for k, v := range Builtins() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// run runs code as the runner does: read by python.Parse, with Builtins.
func run(t testing.TB, code string, opts interp.Options) (*interp.Result, error) {
	t.Helper()
	if opts.Predeclared == nil {
		opts.Predeclared = testGlobals()
	}
	opts.Parse = python.Parse
	return interp.Exec(context.Background(), code, opts)
}

// TestDifferentialFormat checks format(), % and str.format against what
// CPython gives for the same expressions (testdata/format_cases.txt).
func TestDifferentialFormat(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/format_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// The errors of the interpreter a program catches have CPython's class
// and text.
func TestDifferentialErrors(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/errors_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// Text of both kinds compares, orders and is searched as one.
func TestDifferentialText(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/text_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// Eval runs one expression and describes its outcome for pydiff as
// CPython's eval does: a str as it is, anything else by its repr, an
// error by its Python class and text.
func Eval(code string, g starlark.StringDict) pydiff.Outcome {
	res, err := interp.Exec(context.Background(), code, interp.Options{Predeclared: g, Parse: python.Parse, MaxIntDigits: 5000})
	if err != nil {
		var ex *Exception
		if errors.As(err, &ex) {
			return pydiff.Outcome{Class: ex.Class, Msg: ex.Msg}
		}
		var ie *interp.Error
		if errors.As(err, &ie) && ie.Kind == interp.KindRuntime {
			// An error of the interpreter, as an except clause sees it.
			class, text := classify(message(err))
			return pydiff.Outcome{Class: class, Msg: text}
		}
		return pydiff.Outcome{Class: "?", Msg: strings.TrimPrefix(err.Error(), "line 1: ")}
	}
	if s, ok := interp.AsText(res.Value); ok {
		return pydiff.Outcome{Text: s}
	}
	r, err := interp.Repr(nil, res.Value)
	if err != nil {
		return pydiff.Outcome{Class: "?", Msg: err.Error()}
	}
	return pydiff.Outcome{Text: r}
}
