package packs

import (
	"context"
	"testing"
)

func benchTool(b *testing.B, schema string) *Tool {
	b.Helper()
	t := &Tool{Pack: "bench", Name: "t", InputSchema: schema,
		Handler: func(_ context.Context, args map[string]any) (any, error) { return args["text"], nil }}
	if err := t.Compile(); err != nil {
		b.Fatal(err)
	}
	return t
}

const (
	textSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`
	abSchema   = `{"type":"object","properties":{"a":{"type":["integer","number"]},"b":{"type":["integer","number"]}},"required":["a","b"]}`
)

// BenchmarkValidateInput measures validation of small argument maps with
// the fast engine and, for comparison, with the JSON Schema library.
func BenchmarkValidateInput(b *testing.B) {
	cases := []struct {
		name   string
		schema string
		args   map[string]any
	}{
		{"text", textSchema, map[string]any{"text": "x"}},
		{"ab", abSchema, map[string]any{"a": int64(1), "b": int64(2)}},
	}
	for _, c := range cases {
		t := benchTool(b, c.schema)
		st, _ := t.compiled()
		if st.input.fast == nil {
			b.Fatalf("%s: no fast validator", c.name)
		}
		b.Run(c.name+"/fast", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := t.ValidateInput(c.args); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/library", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if p := st.input.slowCheck(c.args); p != nil {
					b.Fatal(p)
				}
			}
		})
	}
}

func BenchmarkBind(b *testing.B) {
	t := benchTool(b, `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","default":1},"limit":{"type":"integer","default":2000}},"required":["path"]}`)
	named := []NamedArg{{Name: "path", Value: "x"}, {Name: "lim", Value: int64(5)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := t.Bind(nil, named); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInvoke(b *testing.B) {
	t := benchTool(b, textSchema)
	args := map[string]any{"text": "x"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Invoke(ctx, t, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCall is a whole call: bind, validate, invoke, validate output.
func BenchmarkCall(b *testing.B) {
	t := benchTool(b, textSchema)
	named := []NamedArg{{Name: "text", Value: "x"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Call(ctx, t, nil, named); err != nil {
			b.Fatal(err)
		}
	}
}
