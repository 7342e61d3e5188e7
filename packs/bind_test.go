package packs

import (
	"errors"
	"reflect"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
)

func readTool(t testing.TB) *Tool {
	t.Helper()
	tool := &Tool{Pack: "file", Name: "read", Handler: nop,
		InputSchema: `{"type":"object","properties":{
			"path":{"type":"string"},
			"offset":{"type":"integer","default":1},
			"limit":{"type":"integer","default":2000},
			"list":{"type":"boolean"},
			"opts":{"type":"object","default":{"a":[1]}},
			"note":{"type":["string","null"]}},
			"required":["path"]}`,
		Synonyms: map[string][]string{"path": {"file", "filename"}, "limit": {"count"}},
	}
	if err := tool.Compile(); err != nil {
		t.Fatal(err)
	}
	return tool
}

const readSig = `file.read(path: str, offset: int = 1, limit: int = 2000, list: bool = None, opts: dict = {"a": [1]}, note: str | None = None) -> any`

func TestBind(t *testing.T) {
	tool := readTool(t)
	if tool.Signature() != readSig {
		t.Fatalf("signature %s", tool.Signature())
	}
	defaults := func(extra map[string]any) map[string]any {
		m := map[string]any{"offset": int64(1), "limit": int64(2000), "opts": mapOf("a", []any{int64(1)})}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name       string
		positional []any
		named      []NamedArg
		want       map[string]any
		err        string
	}{
		{name: "exact", named: []NamedArg{{"path", "x"}}, want: defaults(map[string]any{"path": "x"})},
		{name: "positional", positional: []any{"x", int64(5)}, want: defaults(map[string]any{"path": "x", "offset": int64(5)})},
		{name: "positional and named", positional: []any{"x"}, named: []NamedArg{{"limit", int64(3)}},
			want: defaults(map[string]any{"path": "x", "limit": int64(3)})},
		{name: "synonym", named: []NamedArg{{"filename", "x"}, {"count", int64(9)}},
			want: defaults(map[string]any{"path": "x", "limit": int64(9)})},
		{name: "prefix", named: []NamedArg{{"pa", "x"}, {"off", int64(2)}},
			want: defaults(map[string]any{"path": "x", "offset": int64(2)})},
		{name: "None means default", named: []NamedArg{{"path", "x"}, {"limit", nil}, {"list", nil}},
			want: defaults(map[string]any{"path": "x"})},
		{name: "None kept where null is allowed", named: []NamedArg{{"path", "x"}, {"note", nil}},
			want: defaults(map[string]any{"path": "x", "note": nil})},
		{name: "None for a required parameter is a value", named: []NamedArg{{"path", nil}},
			want: defaults(map[string]any{"path": nil})},
		{name: "unknown with suggestion", named: []NamedArg{{"filepath", "x"}},
			err: `file.read: unknown parameter 'filepath'. Did you mean 'path'? Signature: ` + readSig},
		{name: "unknown via synonym suggests the real name", named: []NamedArg{{"cont", "x"}},
			err: `file.read: unknown parameter 'cont'. Did you mean 'limit'? Signature: ` + readSig},
		{name: "unknown without suggestion", named: []NamedArg{{"zzzzzz", "x"}},
			err: `file.read: unknown parameter 'zzzzzz'. Signature: ` + readSig},
		{name: "ambiguous", named: []NamedArg{{"li", "x"}},
			err: `file.read: ambiguous parameter 'li' matches limit, list. Signature: ` + readSig},
		{name: "too many positional", positional: []any{1, 2, 3, 4, 5, 6, 7},
			err: `file.read: takes 6 positional arguments but 7 were given. Signature: ` + readSig},
		{name: "twice", positional: []any{"x"}, named: []NamedArg{{"path", "y"}},
			err: `file.read: got multiple values for parameter 'path'. Signature: ` + readSig},
		{name: "twice via synonym", named: []NamedArg{{"path", "y"}, {"file", "z"}},
			err: `file.read: got multiple values for parameter 'path'. Signature: ` + readSig},
		{name: "missing", named: []NamedArg{{"limit", int64(1)}},
			err: `file.read: missing required parameter 'path'. Signature: ` + readSig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.Bind(tt.positional, tt.named)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error:\n got %v\nwant %s", err, tt.err)
				}
				if !errors.Is(err, ErrArgs) {
					t.Error("not ErrArgs")
				}
				var ae *ArgError
				if !errors.As(err, &ae) {
					t.Error("not *ArgError")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ordered.Plain(got), ordered.Plain(tt.want)) {
				t.Errorf("got %v\nwant %v", ordered.Plain(got), ordered.Plain(tt.want))
			}
		})
	}
}

func mapOf(kv ...any) *ordered.Map {
	m := ordered.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func TestBindMessages(t *testing.T) {
	two := mustTool(t, "two", `{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}`, ``)
	_, err := two.Bind(nil, nil)
	if want := `t.two: missing required parameters 'a', 'b'. Signature: t.two(a: any, b: any) -> any`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	one := mustTool(t, "one", `{"type":"object","properties":{"a":{}}}`, ``)
	_, err = one.Bind([]any{1, 2}, nil)
	if want := `t.one: takes 1 positional argument but 2 were given. Signature: t.one(a: any = None) -> any`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	none := mustTool(t, "none", ``, ``)
	_, err = none.Bind([]any{1}, nil)
	if want := `t.none: takes 0 positional arguments but 1 was given. Signature: t.none() -> any`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	_, err = none.Bind(nil, []NamedArg{{"x", 1}})
	if want := `t.none: unknown parameter 'x'. Signature: t.none() -> any`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// An input schema that declares additionalProperties takes undeclared
// names; one that is silent about it does not (typos are caught).
func TestBindOpenSchema(t *testing.T) {
	open := mustTool(t, "open", `{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"string"}}`, ``)
	got, err := open.Bind(nil, []NamedArg{{"zz", "v"}})
	if err != nil || got["zz"] != "v" {
		t.Fatalf("got %v, %v", got, err)
	}
	if err := open.ValidateInput(map[string]any{"zz": 1}); err == nil {
		t.Error("additionalProperties schema not applied")
	}
	closed := mustTool(t, "silent", `{"type":"object","properties":{"a":{}}}`, ``)
	if _, err := closed.Bind(nil, []NamedArg{{"zz", "v"}}); !errors.Is(err, ErrArgs) {
		t.Fatalf("got %v", err)
	}
}

func TestBindDoesNotMutate(t *testing.T) {
	tool := readTool(t)
	positional := []any{"x"}
	named := []NamedArg{{"limit", int64(3)}}
	got, err := tool.Bind(positional, named)
	if err != nil {
		t.Fatal(err)
	}
	if positional[0] != "x" || named[0] != (NamedArg{"limit", int64(3)}) {
		t.Error("inputs changed")
	}
	// Defaults are copies: changing one call's default leaves the next alone.
	got["opts"].(*ordered.Map).Set("b", 2)
	again, _ := tool.Bind(positional, named)
	if again["opts"].(*ordered.Map).Len() != 1 {
		t.Error("default shared between calls")
	}
	got["extra"] = 1
	if again["extra"] != nil {
		t.Error("result map shared")
	}
}

func TestSynonymErrors(t *testing.T) {
	for _, syn := range []map[string][]string{
		{"nope": {"x"}},
		{"a": {"b"}},
		{"a": {"x"}, "b": {"x"}},
	} {
		tool := &Tool{Pack: "t", Name: "s", Handler: nop, Synonyms: syn,
			InputSchema: `{"type":"object","properties":{"a":{},"b":{}}}`}
		if err := tool.Compile(); !errors.Is(err, ErrInvalidTool) {
			t.Errorf("%v: got %v", syn, err)
		}
	}
}
