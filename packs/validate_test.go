package packs

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

const richSchema = `{"type":"object","properties":{
	"count":{"type":"integer","minimum":1,"maximum":10},
	"ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
	"name":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"},
	"mode":{"type":"string","enum":["fast","slow"]},
	"kind":{"const":"x"},
	"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2},
	"opts":{"type":"object","properties":{"color":{"type":"string"},"deep":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}},
		"required":["color"],"additionalProperties":false},
	"maybe":{"type":["string","null"]},
	"nothing":false,
	"anything":true,
	"content-type":{"type":"string"}
	},"required":["count"],"additionalProperties":false}`

func TestValidateInputMessages(t *testing.T) {
	tool := mustTool(t, "v", richSchema, ``)
	sig := "\nSignature: " + tool.Signature()
	tests := []struct {
		name string
		args map[string]any
		want string // "" = valid
	}{
		{"valid", map[string]any{"count": int64(3), "ratio": 0.5, "name": "abc", "mode": "fast", "kind": "x",
			"tags": []any{"a"}, "opts": mapOf("color", "red", "deep", mapOf("n", int64(1))), "maybe": nil, "anything": []any{}}, ""},
		{"integral float is an int", map[string]any{"count": 3.0}, ""},
		{"one problem", map[string]any{"count": int64(0)},
			`t.v: invalid arguments: args.count: must be >= 1` + sig},
		{"type", map[string]any{"count": "3"},
			`t.v: invalid arguments: args.count: must be int, got str` + sig},
		{"float for int", map[string]any{"count": 2.5},
			`t.v: invalid arguments: args.count: must be int, got float` + sig},
		{"missing required", map[string]any{},
			`t.v: invalid arguments: args.count: is required` + sig},
		{"many, sorted by key", map[string]any{"count": int64(11), "ratio": 1.0, "name": "ABCDEFG", "mode": "medium",
			"kind": "y", "tags": []any{"a", 2, "c"}, "maybe": int64(1), "nothing": 1, "content-type": 5,
			"opts": map[string]any{"colour": "red", "deep": map[string]any{}}},
			`t.v: invalid arguments:
  args["content-type"]: must be str, got int
  args.count: must be <= 10
  args.kind: must be "x"
  args.maybe: must be str or None, got int
  args.mode: must be one of "fast", "slow"
  args.name: must be at most 5 characters long
  args.name: must match the pattern "^[a-z]+$"
  args.nothing: is not allowed
  args.opts.color: is required
  args.opts.colour: unknown property (did you mean 'color'?)
  args.opts.deep.n: is required
  args.ratio: must be < 1
  args.tags: must have at most 2 items
  args.tags[1]: must be str, got int` + sig},
		{"bounds", map[string]any{"count": int64(1), "ratio": 0, "name": "a", "tags": []any{}},
			`t.v: invalid arguments:
  args.name: must be at least 2 characters long
  args.ratio: must be > 0
  args.tags: must have at least 1 item` + sig},
		{"index order is numeric", map[string]any{"count": int64(1), "tags": []any{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", 1, "l", 2}},
			`t.v: invalid arguments:
  args.tags: must have at most 2 items
  args.tags[10]: must be str, got int
  args.tags[12]: must be str, got int` + sig},
		{"top-level unknown", map[string]any{"count": int64(1), "counts": 1},
			`t.v: invalid arguments: args.counts: unknown property (did you mean 'count'?)` + sig},
		{"nested ordered map", map[string]any{"count": int64(1), "opts": mapOf("color", 1)},
			`t.v: invalid arguments: args.opts.color: must be str, got int` + sig},
	}
	st, _ := tool.compiled()
	if st.input.fast == nil {
		t.Fatal("rich schema should use the fast engine")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tool.ValidateInput(tt.args)
			got := ""
			if err != nil {
				got = err.Error()
				if !errors.Is(err, ErrValidation) {
					t.Error("not ErrValidation")
				}
			}
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			// The library says the same.
			slow := st.input.slowCheck(tt.args)
			fast, ok := st.input.fastCheck(tt.args)
			if !ok {
				t.Fatal("fast engine declined")
			}
			if !reflect.DeepEqual(slow, fast) {
				t.Errorf("engines differ:\nfast %v\nslow %v", fast, slow)
			}
		})
	}
}

// Schemas outside the fast subset go to the library; its results are
// rewritten into the same words.
func TestValidateLibraryPath(t *testing.T) {
	tool := mustTool(t, "lib", `{"type":"object","$defs":{"pos":{"type":"integer","minimum":1}},"properties":{
		"r":{"$ref":"#/$defs/pos"},
		"all":{"allOf":[{"type":"string"},{"minLength":3}]},
		"any":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"m":{"type":"integer","multipleOf":5},
		"e":{"enum":[1,"a",[1]]},
		"extra":{"type":"object","additionalProperties":{"type":"integer"}},
		"req":{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y"]}
	},"required":["r"]}`, ``)
	st, _ := tool.compiled()
	if st.input.fast != nil {
		t.Fatal("expected the library path")
	}
	err := tool.ValidateInput(map[string]any{"r": int64(0), "all": "ab", "any": 1.5, "m": int64(7), "e": "b",
		"extra": mapOf("k", "v"), "req": map[string]any{}})
	want := `t.lib: invalid arguments:
  args.all: must be at least 3 characters long
  args.any: value does not match anyOf schema
  args.e: must be one of 1, "a", [1]
  args.extra.k: must be int, got str
  args.m: 7 should be a multiple of 5
  args.r: must be >= 1
  args.req.x: is required
  args.req.y: is required
Signature: ` + tool.Signature()
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
	if err := tool.ValidateInput(map[string]any{"r": int64(2), "extra": mapOf("k", int64(1))}); err != nil {
		t.Error(err)
	}
}

// Values the fast engine does not know (typed slices, json.Number) are
// checked in their JSON form; values without one (NaN) by the library.
func TestValidateUnsupportedValues(t *testing.T) {
	tool := mustTool(t, "u", `{"type":"object","properties":{"n":{"type":"integer","minimum":1},"l":{"type":"array","items":{"type":"string"}}}}`, ``)
	st, _ := tool.compiled()
	for _, args := range []map[string]any{
		{"n": json.Number("5")},
		{"l": []string{"a"}},
		{"n": float32(2)},
	} {
		if _, ok := st.input.fastCheck(args); ok {
			t.Errorf("%v: fast engine should decline", args)
		}
		if err := tool.ValidateInput(args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
	err := tool.ValidateInput(map[string]any{"n": json.Number("0"), "l": []int{1}})
	if err == nil || !strings.Contains(err.Error(), "args.n: must be >= 1") || !strings.Contains(err.Error(), "args.l[0]: must be str, got int") {
		t.Errorf("got %v", err)
	}
	err = tool.ValidateInput(map[string]any{"n": math.NaN()})
	if want := "args.n: must be int, got a value with no JSON form"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestValidateOutput(t *testing.T) {
	tool := mustTool(t, "o", ``, `{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}`)
	if err := tool.ValidateOutput([]any{mapOf("id", int64(1))}); err != nil {
		t.Error(err)
	}
	err := tool.ValidateOutput([]any{mapOf("id", "x"), mapOf()})
	want := "t.o: invalid result:\n  result[0].id: must be int, got str\n  result[1].id: is required"
	if err == nil || err.Error() != want || !errors.Is(err, ErrOutputValidation) || errors.Is(err, ErrValidation) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	err = tool.ValidateOutput("text")
	if want := "t.o: invalid result: result: must be list, got str"; err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
	none := mustTool(t, "none", ``, ``)
	if err := none.ValidateOutput(func() {}); err != nil {
		t.Errorf("no output schema: %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, input, output, want string
	}{
		{"bad JSON", `{"type":`, ``, `t.bad: invalid input schema: invalid JSON: unexpected EOF`},
		{"not an object", `{"type":"string"}`, ``, `t.bad: invalid input schema: the root must have type "object", not "string"`},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"strin"}}}`, ``,
			`t.bad: invalid input schema: /properties/a/type: unknown type "strin" (want one of string, integer, number, boolean, null, array, object)`},
		{"output unknown type", ``, `{"type":["int"]}`,
			`t.bad: invalid output schema: type: unknown type "int" (want one of string, integer, number, boolean, null, array, object)`},
		{"bad pattern", `{"type":"object","properties":{"a":{"pattern":"(("}}}`, ``,
			"t.bad: invalid input schema: /properties/a/pattern: error parsing regexp: missing closing ): `((`"},
		{"negative length", `{"type":"object","properties":{"a":{"minLength":-1}}}`, ``,
			`t.bad: invalid input schema: /properties/a/minLength: must be a non-negative integer, not -1`},
		{"library refuses", `{"type":"object","required":"a"}`, ``, `t.bad: invalid input schema: `},
		{"remote ref", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, ``,
			`t.bad: invalid input schema: /properties/a/$ref: remote $ref "https://example.com/s.json" is not allowed: a schema may only refer to itself ("#/$defs/...")`},
		{"remote ref in output", ``, `{"$ref":"http://example.com/s.json#/x"}`,
			`t.bad: invalid output schema: $ref: remote $ref "http://example.com/s.json#/x" is not allowed`},
		{"unresolved local ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, ``,
			`t.bad: invalid input schema: unresolved $ref "#/$defs/missing"`},
		{"relative ref", `{"type":"object","properties":{"a":{"$ref":"other.json"}}}`, ``,
			`t.bad: invalid input schema: unresolved $ref "other.json"`},
		{"false input", `false`, ``, `t.bad: invalid input schema: false accepts no arguments at all`},
		{"array", `[]`, ``, `t.bad: invalid input schema: a schema must be a JSON object or a boolean`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &Tool{Pack: "t", Name: "bad", InputSchema: tt.input, OutputSchema: tt.output, Handler: nop}
			err := tool.Compile()
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
			if !errors.Is(err, ErrSchema) {
				t.Error("not ErrSchema")
			}
			// Methods of a tool that does not compile fail the same way.
			if _, err := tool.Bind(nil, nil); !errors.Is(err, ErrSchema) {
				t.Errorf("Bind: %v", err)
			}
			if err := tool.ValidateInput(nil); !errors.Is(err, ErrSchema) {
				t.Errorf("ValidateInput: %v", err)
			}
		})
	}
}

// A schema may refer to itself by an absolute URI it declares with $id.
func TestCompileOwnID(t *testing.T) {
	tool := mustTool(t, "id", `{"$id":"https://example.com/s.json","type":"object","$defs":{"n":{"type":"integer"}},
		"properties":{"a":{"$ref":"https://example.com/s.json#/$defs/n"}}}`, ``)
	if err := tool.ValidateInput(map[string]any{"a": "x"}); err == nil {
		t.Error("ref not applied")
	}
}

func TestCompileIdempotent(t *testing.T) {
	tool := mustTool(t, "c", textSchema, ``)
	st := tool.state.Load()
	if err := tool.Compile(); err != nil || tool.state.Load() != st {
		t.Error("second Compile recompiled")
	}
}

func TestFastEligibility(t *testing.T) {
	tests := []struct {
		schema string
		fast   bool
	}{
		{textSchema, true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string","format":"uri","title":"A","examples":["x"]}}}`, true},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}}`, false},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{}}}`, false},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, false},
		{`{"type":"object","properties":{"a":{"enum":[[1]]}}}`, false},
		{`{"type":"object","properties":{"a":{"enum":[]}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, false},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, false},
		{`{"type":"object","properties":{"a":{"nullable":true}}}`, false},
	}
	for _, tt := range tests {
		tool := mustTool(t, "e", tt.schema, ``)
		st, _ := tool.compiled()
		if got := st.input.fast != nil; got != tt.fast {
			t.Errorf("%s: fast = %v, want %v", tt.schema, got, tt.fast)
		}
	}
}
