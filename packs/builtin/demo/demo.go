// Package demo is the demo pack: small deterministic tools for tests,
// examples and documentation. Their results depend on nothing but their
// arguments, so a transcript that calls them reads the same everywhere:
// demo.foo(text="test") is "orange" on every machine.
package demo

import (
	"context"
	"crypto/md5"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// Description is the pack's one-line description.
const Description = "Deterministic tools for tests and examples"

// Colors and Animals are what foo and bar choose from.
var (
	Colors  = [16]string{"red", "blue", "green", "yellow", "purple", "orange", "pink", "brown", "silver", "gold", "cyan", "magenta", "teal", "coral", "navy", "olive"}
	Animals = [16]string{"tiger", "eagle", "dolphin", "wolf", "falcon", "panther", "cobra", "fox", "hawk", "lion", "shark", "raven", "bear", "lynx", "orca", "viper"}
)

// Register adds the demo pack to r.
func Register(r *packs.Registry) error {
	r.SetPackDescription("demo", Description)
	return r.RegisterBuiltin(Tools()...)
}

// readOnly: none of the demo tools touch anything.
var readOnly = packs.Annotations{ReadOnly: true}

// Tools returns new demo tools, ready to register.
func Tools() []*packs.Tool {
	flaky := &flakyCounter{calls: map[string]int{}}
	return []*packs.Tool{
		{
			Pack: "demo", Name: "flaky",
			Description: "Fail the first `failures` calls for each key, then succeed with {\"key\": key, \"calls\": n}: for testing retries. Calls are counted per process.",
			InputSchema: `{"type":"object","properties":{"key":{"type":"string","description":"Counter to use."},"failures":{"type":"integer","minimum":0,"description":"How many calls fail first."}},"required":["key","failures"],"additionalProperties":false}`,
			Returns:     "dict",
			Examples: []packs.Example{
				{Code: `plan([{"tool": "demo.flaky", "args": {"key": "k", "failures": 2}}], retries=3, retry_delay="10ms")[0]["attempts"]`, Result: "3"},
			},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler:     flaky.call,
		},
		{
			Pack: "demo", Name: "foo",
			Description:  "Pick a colour for a text, deterministically: the same text always gives the same colour (from the MD5 of \"foo-\" + text).",
			InputSchema:  `{"type":"object","properties":{"text":{"type":"string","description":"Any text."}},"required":["text"],"additionalProperties":false}`,
			OutputSchema: `{"type":"string"}`,
			Examples: []packs.Example{
				{Code: `demo.foo(text="test")`, Result: "orange"},
			},
			Deterministic: true,
			Annotations:   readOnly,
			Handler:       pick("foo-", &Colors),
		},
		{
			Pack: "demo", Name: "bar",
			Description:  "Pick an animal for a text, deterministically (from the MD5 of \"bar-\" + text).",
			InputSchema:  `{"type":"object","properties":{"text":{"type":"string","description":"Any text."}},"required":["text"],"additionalProperties":false}`,
			OutputSchema: `{"type":"string"}`,
			Examples: []packs.Example{
				{Code: `demo.bar(text="item1")`, Result: "fox"},
				{Code: `[demo.bar(text=t) for t in ["a", "b"]]`, Description: "One animal per text"},
			},
			Deterministic: true,
			Annotations:   readOnly,
			Handler:       pick("bar-", &Animals),
		},
		{
			Pack: "demo", Name: "add",
			Description: "Add two numbers. Two ints give an int; if either is a float, the sum is a float.",
			InputSchema: `{"type":"object","properties":{
				"a":{"type":["integer","number"],"description":"First number."},
				"b":{"type":["integer","number"],"description":"Second number."}},
				"required":["a","b"],"additionalProperties":false}`,
			OutputSchema: `{"type":["integer","number"]}`,
			Examples: []packs.Example{
				{Code: `demo.add(a=2, b=3)`, Result: "5"},
				{Code: `demo.add(1, 0.5)`, Description: "Positional arguments, a float", Result: "1.5"},
			},
			Deterministic: true,
			Annotations:   readOnly,
			Handler:       add,
		},
		{
			Pack: "demo", Name: "echo",
			Description: "Return the value unchanged, whatever its type: for testing how values cross between Starlark and tools.",
			InputSchema: `{"type":"object","properties":{"value":{"description":"Any value."}},"required":["value"],"additionalProperties":false}`,
			Examples: []packs.Example{
				{Code: `demo.echo(value={"a": [1, 2]})`, Result: `{"a":[1,2]}`},
			},
			Deterministic: true,
			Annotations:   readOnly,
			Handler: func(_ context.Context, args map[string]any) (any, error) {
				return args["value"], nil
			},
		},
		{
			Pack: "demo", Name: "items",
			Description: `Return count items: [{"id": 1, "name": "item1"}, ...], each dict with keys id then name.`,
			InputSchema: `{"type":"object","properties":{
				"count":{"type":"integer","minimum":0,"maximum":1000,"default":3,"description":"How many items."}},
				"additionalProperties":false}`,
			OutputSchema: `{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}}`,
			Examples: []packs.Example{
				{Code: `demo.items(count=2)`, Result: `[{"id":1,"name":"item1"},{"id":2,"name":"item2"}]`},
				{Code: `[i["name"] for i in demo.items()]`, Description: "Names of the default three", Result: `["item1","item2","item3"]`},
			},
			Deterministic: true,
			Annotations:   readOnly,
			Handler:       items,
		},
		{
			Pack: "demo", Name: "sleep",
			Description: "Wait ms milliseconds, then return ms. Stops early, with an error, when the run is cancelled or times out.",
			InputSchema: `{"type":"object","properties":{
				"ms":{"type":"integer","minimum":0,"maximum":600000,"description":"Milliseconds to wait."}},
				"required":["ms"],"additionalProperties":false}`,
			OutputSchema: `{"type":"integer"}`,
			Examples: []packs.Example{
				{Code: `demo.sleep(ms=10)`, Result: "10"},
			},
			Annotations: readOnly,
			Handler:     sleep,
		},
		{
			Pack: "demo", Name: "fail",
			Description: "Always fail with the given message: for testing how tool failures are reported.",
			InputSchema: `{"type":"object","properties":{
				"message":{"type":"string","default":"demo failure","description":"The error message."}},
				"additionalProperties":false}`,
			Returns: "None",
			Examples: []packs.Example{
				{Code: `demo.fail(message="boom")`, Result: "Error: line 1: demo.fail failed: boom"},
			},
			Annotations: readOnly,
			Handler: func(_ context.Context, args map[string]any) (any, error) {
				msg, _ := args["message"].(string)
				return nil, errors.New(msg)
			},
		},
		{
			Pack: "demo", Name: "panic",
			Description: "Panic with the given message: for testing that a crashing tool fails only its own call.",
			InputSchema: `{"type":"object","properties":{
				"message":{"type":"string","default":"demo panic","description":"The panic value."}},
				"additionalProperties":false}`,
			Returns: "None",
			Examples: []packs.Example{
				{Code: `demo.panic()`, Description: `The call fails with "demo.panic failed: panic: demo panic"; the run and the server go on`},
			},
			Annotations: readOnly,
			Handler: func(_ context.Context, args map[string]any) (any, error) {
				msg, _ := args["message"].(string)
				panic(msg)
			},
		},
	}
}

// pick returns a handler choosing from choices by the first byte of
// MD5(prefix + text).
func pick(prefix string, choices *[16]string) packs.Handler {
	return func(_ context.Context, args map[string]any) (any, error) {
		text, ok := args["text"].(string)
		if !ok {
			return nil, fmt.Errorf("text must be a string, got %T", args["text"])
		}
		sum := md5.Sum([]byte(prefix + text))
		return choices[sum[0]%16], nil
	}
}

func add(_ context.Context, args map[string]any) (any, error) {
	a, aInt, err := toNumber("a", args["a"])
	if err != nil {
		return nil, err
	}
	b, bInt, err := toNumber("b", args["b"])
	if err != nil {
		return nil, err
	}
	if aInt && bInt {
		x, y := a.(int64), b.(int64)
		if s := x + y; (s > x) == (y > 0) {
			return s, nil
		}
		// Overflow: the float sum is the honest answer.
		return float64(x) + float64(y), nil
	}
	return asFloat(a) + asFloat(b), nil
}

// toNumber returns v as int64 (isInt) or float64.
func toNumber(name string, v any) (n any, isInt bool, err error) {
	switch x := v.(type) {
	case int64:
		return x, true, nil
	case int:
		return int64(x), true, nil
	case float64:
		return x, false, nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, true, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, false, fmt.Errorf("%s: %q is not a number", name, x)
		}
		return f, false, nil
	}
	return nil, false, fmt.Errorf("%s must be a number, got %T", name, v)
}

func asFloat(v any) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v.(float64)
}

func items(_ context.Context, args map[string]any) (any, error) {
	n, _, err := toNumber("count", args["count"])
	if err != nil {
		return nil, err
	}
	count := int64(math.Round(asFloat(n)))
	if count < 0 || count > 1000 {
		return nil, fmt.Errorf("count must be between 0 and 1000, got %d", count)
	}
	out := make([]any, count)
	for i := range count {
		m := ordered.NewMap(2)
		m.Set("id", i+1)
		m.Set("name", fmt.Sprintf("item%d", i+1))
		out[i] = m
	}
	return out, nil
}

func sleep(ctx context.Context, args map[string]any) (any, error) {
	n, _, err := toNumber("ms", args["ms"])
	if err != nil {
		return nil, err
	}
	ms := int64(asFloat(n))
	start := time.Now()
	timer := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer timer.Stop()
	select {
	case <-timer.C:
		return ms, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("sleep interrupted after %dms: %w", time.Since(start).Milliseconds(), ctx.Err())
	}
}

// flakyCounter counts demo.flaky calls per key, for one registry.
type flakyCounter struct {
	mu    sync.Mutex
	calls map[string]int
}

func (f *flakyCounter) call(_ context.Context, args map[string]any) (any, error) {
	key, _ := args["key"].(string)
	failures := toInt(args["failures"])
	f.mu.Lock()
	f.calls[key]++
	n := f.calls[key]
	f.mu.Unlock()
	if n <= failures {
		return nil, fmt.Errorf("flaky failure %d of %d for key %q", n, failures, key)
	}
	m := ordered.NewMap(2)
	m.Set("key", key)
	m.Set("calls", n)
	return m, nil
}

func toInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}
