package interp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

const slugSrc = `
def slugify(title):
    out = []
    for ch in title.lower().elems():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return {"slug": "".join(out).strip("-")}

def broken(n):
    return helper(n)

def helper(n):
    return 1 // n

def spin():
    while True:
        pass
`

func TestModuleCall(t *testing.T) {
	m, err := CompileModule("slugify.star", slugSrc, testGlobals())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Predeclared: testGlobals(), MaxSteps: 100_000}
	v, err := m.Call(context.Background(), "slugify", map[string]any{"title": "Hello, World!"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := Format(mustFromGo(t, v), ""); text != `{"slug":"hello-world"}` {
		t.Errorf("slugify = %s", text)
	}
	_, err = m.Call(context.Background(), "broken", map[string]any{"n": 0}, opts)
	if err == nil || err.Error() != "slugify.star: line 15: division by zero (in helper, called from line 12 in broken)" {
		t.Errorf("error = %v", err)
	}
	_, err = m.Call(context.Background(), "spin", nil, opts)
	if !errors.Is(err, ErrStepLimit) || !strings.HasPrefix(err.Error(), "slugify.star: step limit of 100000 exceeded at line 18") {
		t.Errorf("budget: %v", err)
	}
	if _, err := m.Call(context.Background(), "nope", nil, opts); err == nil {
		t.Error("calling a missing function succeeded")
	}
}

func TestCheckModule(t *testing.T) {
	if err := CheckModule("s.star", slugSrc, "slugify"); err != nil {
		t.Error(err)
	}
	if err := CheckModule("s.star", slugSrc, "slug"); err == nil || err.Error() != "s.star has no function slug (it defines slugify, broken, helper, spin)" {
		t.Errorf("missing function: %v", err)
	}
	if err := CheckModule("s.star", "def f(:\n", "f"); err == nil || !strings.HasPrefix(err.Error(), "s.star: syntax error at line 1") {
		t.Errorf("syntax error: %v", err)
	}
}

func mustFromGo(t *testing.T, v any) starlark.Value {
	t.Helper()
	sv, err := FromGo(v)
	if err != nil {
		t.Fatal(err)
	}
	return sv
}
