package interp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// atEndGlobals: later(name, fail=False, spin=False, keep=True) adds an end
// hook that prints "end <name>" (or fails, or loops past the step
// budget); keep=False removes it at once, as closing a file does.
func atEndGlobals() starlark.StringDict {
	g := testGlobals()
	out := starlark.StringDict{}
	for k, v := range g {
		out[k] = v
	}
	out["later"] = starlark.NewBuiltin("later", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var name string
		fail, spin, keep := false, false, true
		if err := starlark.UnpackArgs(b.Name(), args, kw, "name", &name, "fail?", &fail, "spin?", &spin, "keep?", &keep); err != nil {
			return nil, err
		}
		remove := AtEnd(th, "<file "+name+">", func(th *starlark.Thread) error {
			switch {
			case fail:
				return errors.New("disk full")
			case spin:
				for {
					if err := BudgetOf(th).Charge(1000); err != nil {
						return err
					}
				}
			}
			return Print(th, "end "+name+"\n")
		})
		if !keep {
			remove()
		}
		return starlark.None, nil
	})
	out.Freeze()
	return out
}

func TestAtEnd(t *testing.T) {
	for _, c := range []struct {
		name, code string
		opts       Options
		printed    string // the run's printed text, or the error's
		stderr     string
		err        string // "" for success
	}{
		{name: "normal end, the last added first", code: "later('a')\nlater('b')\nprint('body')",
			printed: "body\nend b\nend a"},
		{name: "removed", code: "later('a', keep=False)\nlater('b')", printed: "end b"},
		{name: "uncaught exception", code: "later('a')\nprint('x')\nboom()",
			printed: "x\nend a", err: "boom failed"},
		{name: "a failing hook is printed, the run succeeds", code: "later('a', fail=True)\nlater('b')\nprint('ok')",
			opts: Options{SeparateStderr: true}, printed: "ok\nend b", stderr: "Exception ignored in: <file a>\ndisk full\n"},
		{name: "not after a step budget stop", code: "later('a')\nwhile True:\n    pass",
			opts: Options{MaxSteps: 10000}, err: "step"},
		{name: "not after a timeout", code: "later('a')\nblock()",
			opts: Options{Timeout: 50 * time.Millisecond}, err: "time"},
		{name: "a hook past the budget ends the run", code: "later('a', spin=True)",
			opts: Options{MaxSteps: 100000}, err: "step"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Predeclared = atEndGlobals()
			res, err := run(t, c.code, c.opts)
			if c.err != "" {
				var ie *Error
				if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one containing %q", err, c.err)
				}
				if ie.Printed != c.printed {
					t.Errorf("printed %q, want %q", ie.Printed, c.printed)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Printed != c.printed || res.Stderr != c.stderr {
				t.Errorf("printed %q stderr %q, want %q %q", res.Printed, res.Stderr, c.printed, c.stderr)
			}
		})
	}
}
