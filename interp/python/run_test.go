package python

import (
	"context"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// testGlobals are the names a program sees in these tests: the library
// and the runtime's builtins, which the lowered trees call.
func testGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range interp.StdGlobals() {
		g[k] = v
	}
	for k, v := range pyrt.Builtins() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// run runs code as the runner does: read by Parse, with the runtime.
func run(t testing.TB, code string, opts interp.Options) (*interp.Result, error) {
	t.Helper()
	if opts.Predeclared == nil {
		opts.Predeclared = testGlobals()
	}
	opts.Parse = Parse
	return interp.Exec(context.Background(), code, opts)
}
