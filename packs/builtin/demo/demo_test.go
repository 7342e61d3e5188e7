package demo

import (
	"context"
	"crypto/md5"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

func registry(t *testing.T) *packs.Registry {
	t.Helper()
	r := packs.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// call runs a whole call, as a Starlark program would: keyword arguments,
// validation of arguments and result.
func call(t *testing.T, r *packs.Registry, id string, kv ...any) (any, error) {
	t.Helper()
	tool, ok := r.Tool(id)
	if !ok {
		t.Fatalf("no tool %s", id)
	}
	var named []packs.NamedArg
	for i := 0; i < len(kv); i += 2 {
		named = append(named, packs.NamedArg{Name: kv[i].(string), Value: kv[i+1]})
	}
	return packs.Call(context.Background(), tool, nil, named)
}

func TestPack(t *testing.T) {
	r := registry(t)
	p, ok := r.Pack("demo")
	if !ok || p.Description != "Deterministic tools for tests and examples" {
		t.Fatalf("pack: %v", p)
	}
	if got := strings.Join(p.ToolNames(), ","); got != "add,bar,echo,fail,flaky,foo,items,panic,sleep" {
		t.Errorf("tools: %s", got)
	}
	sigs := map[string]string{
		"foo":   `demo.foo(text: str) -> str`,
		"bar":   `demo.bar(text: str) -> str`,
		"add":   `demo.add(a: int | float, b: int | float) -> int | float`,
		"echo":  `demo.echo(value: any) -> any`,
		"items": `demo.items(count: int = 3) -> list[dict]`,
		"sleep": `demo.sleep(ms: int) -> int`,
		"fail":  `demo.fail(message: str = "demo failure") -> None`,
		"panic": `demo.panic(message: str = "demo panic") -> None`,
		"flaky": `demo.flaky(key: str, failures: int) -> dict`,
	}
	for _, tool := range p.Tools() {
		if got := tool.Signature(); got != sigs[tool.Name] {
			t.Errorf("%s: %s, want %s", tool.Name, got, sigs[tool.Name])
		}
		if tool.Description == "" || len(tool.Examples) == 0 || !tool.Annotations.ReadOnly || tool.Annotations.OpenWorld {
			t.Errorf("%s: description, examples or annotations missing", tool.Name)
		}
		want := map[string]bool{"foo": true, "bar": true, "add": true, "echo": true, "items": true}[tool.Name]
		if tool.Deterministic != want {
			t.Errorf("%s: Deterministic = %v", tool.Name, tool.Deterministic)
		}
	}
}

func TestFooBar(t *testing.T) {
	r := registry(t)
	// Fixed points, checked against Python's hashlib.
	fixed := []struct{ id, text, want string }{
		{"demo.foo", "test", "orange"},
		{"demo.bar", "item1", "fox"},
		{"demo.foo", "hello", "magenta"},
		{"demo.bar", "hello", "bear"},
		{"demo.foo", "", "yellow"},
		{"demo.foo", "日本", "orange"},
		{"demo.bar", "日本", "dolphin"},
		{"demo.bar", "item2", "eagle"},
	}
	for _, f := range fixed {
		got, err := call(t, r, f.id, "text", f.text)
		if err != nil || got != f.want {
			t.Errorf("%s(text=%q) = %v, %v; want %s", f.id, f.text, got, err, f.want)
		}
	}
	// And computed here, independently of the handler.
	for _, text := range []string{"a", "b", "item3", "The quick brown fox", "\x00"} {
		sum := md5.Sum([]byte("foo-" + text))
		if got, _ := call(t, r, "demo.foo", "text", text); got != Colors[sum[0]%16] {
			t.Errorf("foo(%q) = %v", text, got)
		}
		sum = md5.Sum([]byte("bar-" + text))
		if got, _ := call(t, r, "demo.bar", "text", text); got != Animals[sum[0]%16] {
			t.Errorf("bar(%q) = %v", text, got)
		}
	}
	if _, err := call(t, r, "demo.foo", "text", 5); !errors.Is(err, packs.ErrValidation) {
		t.Errorf("foo(text=5): %v", err)
	}
}

func TestAdd(t *testing.T) {
	r := registry(t)
	tests := []struct {
		a, b, want any
	}{
		{int64(2), int64(3), int64(5)},
		{int64(1), 0.5, 1.5},
		{0.25, 0.5, 0.75},
		{int64(-4), int64(4), int64(0)},
		{2.0, int64(1), 3.0},
		{1, 2, int64(3)},
		{json.Number("2"), json.Number("0.5"), 2.5},
		{int64(9223372036854775807), int64(1), 9.223372036854775808e18},
	}
	for _, tt := range tests {
		got, err := call(t, r, "demo.add", "a", tt.a, "b", tt.b)
		if err != nil || got != tt.want {
			t.Errorf("add(%v, %v) = %#v, %v; want %#v", tt.a, tt.b, got, err, tt.want)
		}
	}
	if _, err := call(t, r, "demo.add", "a", "1", "b", 2); !errors.Is(err, packs.ErrValidation) {
		t.Errorf("add(a=\"1\"): %v", err)
	}
}

func TestEcho(t *testing.T) {
	r := registry(t)
	m := ordered.NewMap(1)
	m.Set("a", []any{int64(1), nil})
	for _, v := range []any{nil, true, int64(1), 2.5, "s", []any{}, m} {
		got, err := call(t, r, "demo.echo", "value", v)
		if err != nil {
			t.Fatal(err)
		}
		if a, _ := ordered.Encode(got); string(a) != string(must(ordered.Encode(v))) {
			t.Errorf("echo(%v) = %v", v, got)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestItems(t *testing.T) {
	r := registry(t)
	got, err := call(t, r, "demo.items", "count", int64(2))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := ordered.Encode(got)
	if string(data) != `[{"id":1,"name":"item1"},{"id":2,"name":"item2"}]` {
		t.Errorf("items(2) = %s", data)
	}
	got, _ = call(t, r, "demo.items")
	if len(got.([]any)) != 3 {
		t.Errorf("default count: %v", got)
	}
	for _, n := range []int64{0, 1000} {
		got, err := call(t, r, "demo.items", "count", n)
		if err != nil || int64(len(got.([]any))) != n {
			t.Errorf("items(%d): %v", n, err)
		}
	}
	for _, n := range []int64{-1, 1001} {
		if _, err := call(t, r, "demo.items", "count", n); !errors.Is(err, packs.ErrValidation) {
			t.Errorf("items(%d): %v", n, err)
		}
	}
	_, err = call(t, r, "demo.items", "count", int64(-1))
	if want := "demo.items: invalid arguments: args.count: must be >= 0\nSignature: demo.items(count: int = 3) -> list[dict]"; err.Error() != want {
		t.Errorf("got %q", err)
	}
}

func TestSleep(t *testing.T) {
	r := registry(t)
	got, err := call(t, r, "demo.sleep", "ms", int64(5))
	if err != nil || got != int64(5) {
		t.Fatalf("sleep(5) = %v, %v", got, err)
	}
	tool, _ := r.Tool("demo.sleep")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := packs.Invoke(ctx, tool, map[string]any{"ms": int64(60000)})
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	select {
	case err := <-done:
		if lag := time.Since(cancelled); lag > 50*time.Millisecond {
			t.Errorf("returned %v after cancel", lag)
		}
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "sleep interrupted after ") ||
			!strings.HasSuffix(err.Error(), "ms: context canceled") {
			t.Errorf("got %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("sleep ignored cancellation")
	}

	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := packs.Invoke(ctx, tool, map[string]any{"ms": int64(60000)}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}

func TestFailAndPanic(t *testing.T) {
	r := registry(t)
	if _, err := call(t, r, "demo.fail"); err == nil || err.Error() != "demo failure" {
		t.Errorf("fail() = %v", err)
	}
	if _, err := call(t, r, "demo.fail", "message", "boom"); err == nil || err.Error() != "boom" {
		t.Errorf("fail(boom) = %v", err)
	}
	_, err := call(t, r, "demo.panic")
	if !errors.Is(err, packs.ErrPanic) || err.Error() != "demo.panic panicked: demo panic" {
		t.Errorf("panic() = %v", err)
	}
}

func TestFlaky(t *testing.T) {
	r := registry(t)
	for i := 1; i <= 2; i++ {
		if _, err := call(t, r, "demo.flaky", "key", "k", "failures", 2); err == nil {
			t.Fatalf("call %d succeeded, want a failure", i)
		}
	}
	v, err := call(t, r, "demo.flaky", "key", "k", "failures", 2)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := ordered.Encode(v); string(data) != `{"key":"k","calls":3}` {
		t.Errorf("third call = %s", data)
	}
	if _, err := call(t, r, "demo.flaky", "key", "other", "failures", 1); err == nil {
		t.Error("keys share a counter")
	}
}
