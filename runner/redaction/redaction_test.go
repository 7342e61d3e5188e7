package redaction

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// hardSecret has a character of each kind that some format escapes.
const hardSecret = `p"a\ss <wörd> & /x'`

// testSecrets loads a configuration whose secrets.yaml holds hardSecret
// as HARD.
func testSecrets(t testing.TB) *config.Secrets {
	t.Helper()
	dir := t.TempDir()
	v, _ := json.Marshal(hardSecret)
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("HARD: "+string(v)+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Secrets
}

// shown is what a program would hold of v: its Starlark conversion,
// formatted.
func shown(t *testing.T, v any) string {
	t.Helper()
	sv, err := interp.FromGo(v)
	if err != nil {
		t.Fatalf("FromGo(%T): %v", v, err)
	}
	text, _ := interp.Format(sv, "")
	return text
}

type withSecret struct {
	Name  string            `json:"name"`
	Inner map[string]string `json:"inner"`
}

// Every kind of Go value a tool can return, holding the secret: what the
// program gets holds the marker and not the secret, whatever the type.
func TestEnteringEveryType(t *testing.T) {
	s := testSecrets(t)
	sec := hardSecret
	om := ordered.NewMap(1)
	om.Set(sec, []any{"x " + sec})
	for _, v := range []any{
		sec,
		[]byte("bytes: " + sec),
		[]string{"a", sec},
		[]any{1, []any{sec}},
		map[string]any{sec: "key"},
		om,
		[]map[string]any{{"k": sec}},
		withSecret{Name: sec, Inner: map[string]string{"k": sec}},
		&withSecret{Name: "ok", Inner: map[string]string{sec: "v"}},
		map[string]int{sec: 1},
		[]any{[]byte(sec), []string{sec}},
		json.RawMessage(`{"k":` + string(must(json.Marshal(sec))) + `}`),
		starlark.String(sec),
		starlark.NewList([]starlark.Value{starlark.String(sec)}),
	} {
		got, err := Entering(s, v)
		if err != nil {
			t.Errorf("%T: %v", v, err)
			continue
		}
		text := shown(t, got)
		if strings.Contains(text, "wörd") || !strings.Contains(text, "[secret:HARD]") {
			t.Errorf("%T: the program gets %s", v, text)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A value without secrets comes back as it is, not copied; with no
// secrets configured, nothing is walked.
func TestEnteringKeepsCleanValues(t *testing.T) {
	s := testSecrets(t)
	m := map[string]any{"a": []any{"b", 1.5, true, nil}, "t": time.Unix(0, 0), "n": json.Number("1")}
	got, err := Entering(s, m)
	if err != nil || fmt.Sprintf("%p", got) != fmt.Sprintf("%p", m) {
		t.Errorf("copied a clean map: %v", err)
	}
	om := ordered.NewMap(3)
	om.Set("id", int64(7))
	om.Set("name", "item number seven, a name long enough to be searched")
	om.Set("tags", []any{"alpha", "beta"})
	if n := testing.AllocsPerRun(100, func() { Entering(s, om) }); n != 0 {
		t.Errorf("a clean dict costs %v allocations", n)
	}
	b := big.NewInt(42)
	if got, _ := Entering(s, b); got != any(b) {
		t.Error("copied a clean big.Int")
	}
	if got, _ := Entering(nil, hardSecret); got != hardSecret {
		t.Error("no secrets: changed")
	}
}

// A result too deep to check is refused, not handed over unchecked.
func TestEnteringRefusesWhatItCannotCheck(t *testing.T) {
	s := testSecrets(t)
	var deep any = []any{hardSecret}
	for range maxDepth + 1 {
		deep = []any{deep}
	}
	if _, err := Entering(s, deep); !errors.Is(err, ErrUnchecked) {
		t.Errorf("err = %v", err)
	}
}

// A tool's error reaches a program with the secret hidden in its text;
// errors.Is still matches its sentinels, its Python class is kept, and
// errors.As reaches none of its parts (which hold the secret).
func TestEnteringError(t *testing.T) {
	s := testSecrets(t)
	cause := &packs.PanicError{ToolID: "demo.x", Value: "bad " + hardSecret}
	err := fmt.Errorf("wrapped: %w", errors.Join(packs.ErrPanic, cause))
	got := EnteringError(s, err)
	if strings.Contains(got.Error(), "wörd") || !strings.Contains(got.Error(), "[secret:HARD]") {
		t.Errorf("text: %v", got)
	}
	if !errors.Is(got, packs.ErrPanic) {
		t.Error("errors.Is lost the sentinel")
	}
	var pe *packs.PanicError
	if errors.As(got, &pe) {
		t.Error("errors.As reached a part holding the secret")
	}

	classed := EnteringError(s, &packs.ArgError{ToolID: "demo.x", Kind: packs.ArgUnknown, Name: hardSecret})
	var c interface{ PythonClass() string }
	if !errors.As(classed, &c) || c.PythonClass() != "ToolError" {
		t.Errorf("the Python class was lost: %#v", classed)
	}
	if !errors.Is(classed, packs.ErrArgs) {
		t.Error("errors.Is lost ErrArgs")
	}

	clean := errors.New("nothing to hide")
	if EnteringError(s, clean) != clean || EnteringError(s, nil) != nil {
		t.Error("a clean error was replaced")
	}
}

// The exit walk copies what it changes, leaves the program's (frozen,
// shared) values as they were, and is bounded: a value sharing one list
// at every level, 2**40 paths to its string, makes it give up quickly and
// return the value as it was, for redaction of the text to handle. A Go
// value too deep to check is withheld.
func TestStarlarkValue(t *testing.T) {
	secrets := testSecrets(t)
	s := starlark.String(hardSecret)
	shared := starlark.NewList([]starlark.Value{starlark.String("plain"), starlark.MakeInt(1)})
	d := starlark.NewDict(2)
	d.SetKey(s, shared)
	d.SetKey(starlark.String("k"), starlark.Tuple{s, shared})
	d.Freeze()

	got := Starlark(secrets, d)
	if text, _ := interp.Format(got, ""); text != `{"[secret:HARD]":["plain",1],"k":["[secret:HARD]",["plain",1]]}` {
		t.Errorf("redacted: %s", text)
	}
	if text, _ := interp.Format(d, ""); !strings.Contains(text, "wörd") {
		t.Errorf("the program's value was changed: %s", text)
	}
	if Starlark(secrets, shared) != starlark.Value(shared) {
		t.Error("a value without secrets should come back as it is, not copied")
	}

	dag := starlark.Value(starlark.NewList([]starlark.Value{s}))
	for range 40 {
		dag = starlark.NewList([]starlark.Value{dag, dag})
	}
	start := time.Now()
	if Starlark(secrets, dag) != dag {
		t.Error("the walk should have given up")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("giving up took %v", d)
	}

	var deep any = []any{hardSecret}
	for range maxDepth + 1 {
		deep = []any{deep}
	}
	if v := Value(context.Background(), secrets, deep); v != nil {
		t.Error("a Go value that cannot be checked is not handed out")
	}
}

// BenchmarkEntering is the cost a tool result pays on its way into a
// program, with secrets configured and none in the result: a small dict,
// rows of a query, and a page of text.
func BenchmarkEntering(b *testing.B) {
	s := testSecrets(b)
	row := func(i int) any {
		m := ordered.NewMap(4)
		m.Set("id", int64(i))
		m.Set("name", fmt.Sprintf("item number %d", i))
		sum := sha256.Sum256([]byte(fmt.Sprint(i)))
		m.Set("sha", hex.EncodeToString(sum[:]))
		m.Set("tags", []any{"alpha", "beta"})
		return m
	}
	rows := make([]any, 1000)
	for i := range rows {
		rows[i] = row(i)
	}
	page := strings.Repeat("Some ordinary words of a fetched page, with a link https://example.com/a?b=c and numbers 12345.\n", 700)
	for _, bc := range []struct {
		name string
		v    any
	}{
		{"dict", row(1)},
		{"1000-rows", rows},
		{"64KiB-text", page},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Entering(s, bc.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// valuer converts as another value, as an instance of a program's class
// converts as its repr or its fields.
type valuer struct{ as starlark.Value }

func (v valuer) String() string                { return "valuer" }
func (v valuer) Type() string                  { return "valuer" }
func (v valuer) Freeze()                       {}
func (v valuer) Truth() starlark.Bool          { return true }
func (v valuer) Hash() (uint32, error)         { return 0, nil }
func (v valuer) StarlarkValue() starlark.Value { return v.as }

// A value that converts as another (an instance shown by its repr, a
// dataclass by its fields) leaves a run with the secret in that form
// redacted, and as itself when there is none.
func TestStarlarkValuerRedacted(t *testing.T) {
	secrets := testSecrets(t)
	d := starlark.NewDict(1)
	d.SetKey(starlark.String("token"), starlark.String(hardSecret))
	got := Starlark(secrets, valuer{as: d})
	if text, _ := interp.Format(got, ""); text != `{"token":"[secret:HARD]"}` {
		t.Errorf("redacted: %s", text)
	}
	clean := valuer{as: starlark.String("Point(1, 2)")}
	if Starlark(secrets, clean) != starlark.Value(clean) {
		t.Error("a value without secrets should come back as it is")
	}
}
