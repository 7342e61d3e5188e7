package ordered

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestDecodeEncodeRoundTrip(t *testing.T) {
	for _, in := range []string{
		`null`, `true`, `"x"`, `1`, `-9223372036854775808`, `1.5`, `1.0`, `1e+300`,
		`[]`, `{}`, `[1,"a",null,[2]]`,
		`{"z":1,"a":{"y":[1,2],"b":null},"m":"é<>&\"\\\n"}`,
	} {
		v, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("Decode(%s): %v", in, err)
		}
		out, err := Encode(v)
		if err != nil {
			t.Fatalf("Encode(%s): %v", in, err)
		}
		if string(out) != in {
			t.Errorf("round trip %s = %s", in, out)
		}
	}
}

func TestDecodeNumbers(t *testing.T) {
	v, _ := Decode([]byte(`[1, 1.0, 12345678901234567890, -3]`))
	list := v.([]any)
	if _, ok := list[0].(int64); !ok {
		t.Errorf("1 decoded as %T, want int64", list[0])
	}
	if _, ok := list[1].(float64); !ok {
		t.Errorf("1.0 decoded as %T, want float64", list[1])
	}
	if _, ok := list[2].(float64); !ok {
		t.Errorf("a number beyond int64 decoded as %T, want float64", list[2])
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,]`, `{"a" 1}`, `1 2`, `nul`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q) succeeded, want error", in)
		}
	}
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	if _, err := Decode([]byte(deep)); !errors.Is(err, ErrDepth) {
		t.Errorf("Decode(2000 nested arrays) = %v, want ErrDepth", err)
	}
}

func TestEncodeGoValues(t *testing.T) {
	type tagged struct {
		B string `json:"b"`
		A int    `json:"a"`
	}
	for _, tt := range []struct {
		in   any
		want string
	}{
		{map[string]any{"b": 1, "a": 2}, `{"a":2,"b":1}`},
		{[]string{"x", "y"}, `["x","y"]`},
		{map[string]int{"k": 1}, `{"k":1}`},
		{tagged{B: "x", A: 1}, `{"b":"x","a":1}`},
		{uint8(7), `7`},
		{float64(2), `2.0`},
		{"\u2028\x01", `"\u2028\u0001"`},
		{"\xff", `"\ufffd"`},
		{[]any(nil), `[]`},
	} {
		got, err := Encode(tt.in)
		if err != nil {
			t.Errorf("Encode(%#v): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Encode(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if _, err := Encode(math.NaN()); err == nil {
		t.Error("Encode(NaN) succeeded, want error")
	}
}

func TestEncodeIndent(t *testing.T) {
	m := NewMap(2)
	m.Set("name", "test")
	m.Set("tags", []any{"a", 1})
	m.Set("empty", []any{})
	got, err := EncodeIndent(m, "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"name\": \"test\",\n  \"tags\": [\n    \"a\",\n    1\n  ],\n  \"empty\": []\n}"
	if string(got) != want {
		t.Errorf("EncodeIndent =\n%s\nwant\n%s", got, want)
	}
}

func TestMapOrderAndClone(t *testing.T) {
	var m Map
	m.Set("b", 1)
	m.Set("a", []any{NewMap(0)})
	m.Set("b", 3) // keeps its place
	if got := strings.Join(m.Keys(), ","); got != "b,a" {
		t.Errorf("keys = %s, want b,a", got)
	}
	c := Clone(&m).(*Map)
	c.Set("c", 1)
	inner, _ := c.Get("a")
	inner.([]any)[0].(*Map).Set("x", 1)
	if m.Len() != 2 {
		t.Errorf("Clone shares the top level: original has %d keys", m.Len())
	}
	orig, _ := m.Get("a")
	if orig.([]any)[0].(*Map).Len() != 0 {
		t.Error("Clone shares nested maps")
	}
	m.Delete("b")
	if got := strings.Join(m.Keys(), ","); got != "a" {
		t.Errorf("after Delete keys = %s, want a", got)
	}
	p := Plain(&m).(map[string]any)
	if _, ok := p["a"].([]any)[0].(map[string]any); !ok {
		t.Errorf("Plain left a nested *Map: %#v", p)
	}
	var u Map
	if err := u.UnmarshalJSON([]byte(`{"y":1,"x":2}`)); err != nil || strings.Join(u.Keys(), ",") != "y,x" {
		t.Errorf("UnmarshalJSON: %v, keys %v", err, u.Keys())
	}
	if err := u.UnmarshalJSON([]byte(`[1]`)); err == nil {
		t.Error("UnmarshalJSON of an array into a Map succeeded")
	}
}

// EncodeWith asks its check with the size the text will have, escapes
// counted (1 MB of zero bytes is 6 MB of JSON), and stops with its error
// before the text passes a limit.
func TestEncodeWithLimit(t *testing.T) {
	errTooLarge := errors.New("too large")
	zeros := strings.Repeat("\x00", 1<<20)
	tests := []struct {
		name    string
		v       any
		limit   int
		tooLong bool
	}{
		{"fits", []any{"abc", int64(1)}, 100, false},
		{"no limit", []any{zeros}, 0, false},
		{"escapes past the limit", []any{zeros}, 4 << 20, true},
		{"escapes within the limit", []any{zeros}, 7 << 20, false},
		{"a text longer than the limit", "x" + zeros, 1 << 20, true},
		{"many small values", []any{strings.Repeat("ab", 10), []any{int64(1), int64(2)}, zeros[:100]}, 50, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, indent := range []string{"", "  "} {
				var check func(int) error
				if tt.limit > 0 {
					check = func(size int) error {
						if size > tt.limit {
							return errTooLarge
						}
						return nil
					}
				}
				out, err := EncodeWith(tt.v, indent, check)
				if tt.tooLong {
					if !errors.Is(err, errTooLarge) {
						t.Errorf("indent %q: error = %v, want the check's", indent, err)
					}
					continue
				}
				want, _ := EncodeIndent(tt.v, indent)
				if err != nil || string(out) != string(want) {
					t.Errorf("indent %q: %d bytes, %v; want the %d of EncodeIndent", indent, len(out), err, len(want))
				}
			}
		})
	}
}
