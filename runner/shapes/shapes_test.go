package shapes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// obj builds an *ordered.Map from key, value pairs, as tool results
// arrive (ordered.Decode, MCP results).
func obj(kv ...any) *ordered.Map {
	m := ordered.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func list(v ...any) []any { return v }

// dec decodes JSON as a tool's result would be.
func dec(t testing.TB, s string) any {
	t.Helper()
	v, err := ordered.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tool returns an upstream-like tool with no declared result.
func tool(id string) *packs.Tool {
	pack, name, _ := strings.Cut(id, ".")
	return &packs.Tool{Pack: pack, Name: name, Handler: func(context.Context, map[string]any) (any, error) { return nil, nil }}
}

// learned is the rendered shape of results, as one Learner learns them
// from successive calls.
func learned(t testing.TB, o Options, results ...any) string {
	t.Helper()
	l := New(nil, o)
	tl := tool("srv.fn")
	for _, r := range results {
		l.Observe(context.Background(), tl, r)
	}
	typ, seen := l.ResultType(tl)
	if typ != "" && !seen {
		t.Fatalf("a learned type must say seen")
	}
	return typ
}

func TestShapes(t *testing.T) {
	many := ordered.NewMap(60)
	for i := range 60 {
		many.Set(fmt.Sprintf("user%c%c", 'a'+i/26, 'a'+i%26), int64(i))
	}
	var varying []any
	for i := range 8 {
		varying = append(varying, obj(fmt.Sprintf("item%c", 'a'+2*i), int64(1), fmt.Sprintf("item%c", 'b'+2*i), int64(2)))
	}
	deep := any("x")
	for _, k := range []string{"f", "e", "d", "c", "b", "a"} {
		deep = obj(k, deep)
	}
	long := ordered.NewMap(30)
	for i := range 30 {
		long.Set(fmt.Sprintf("field_number_%c", 'a'+i), "v")
	}
	tests := []struct {
		name    string
		results []any
		want    string
	}{
		{"nothing", nil, ""},
		{"None", list(nil), "None"},
		{"text", list("hello"), "str"},
		{"record", list(obj("id", int64(1), "name", "ann", "score", 2.5, "ok", true)), "{id: int, name: str, score: float, ok: bool}"},
		{"nested", list(dec(t, `{"user": {"id": 1, "tags": ["a", "b"]}, "n": 2}`)), "{user: {id: int, tags: list[str]}, n: int}"},
		{"list of records, optional keys", list(dec(t, `[{"id": 1, "name": "a"}, {"id": 2}]`)), "list[{id: int, name?: str}]"},
		{"optional keys across results", list(dec(t, `{"id": 1}`), dec(t, `{"id": 2, "name": null}`)), "{id: int, name?: None}"},
		{"None then a value", list(dec(t, `{"id": 1, "name": null}`), dec(t, `{"id": 2, "name": "b"}`)), "{id: int, name: str | None}"},
		{"record or None", list(dec(t, `[{"id": 1}, null]`)), "list[{id: int} | None]"},
		{"keyed by emails", list(dec(t, `{"ann@example.com": {"n": 1}, "bob@example.com": {"n": 2}}`)), "dict[str, {n: int}]"},
		{"keyed by numbers", list(dec(t, `{"101": 3, "102": 4, "7": 5}`)), "dict[str, int]"},
		{"keyed by dates", list(dec(t, `{"2024-01-01": [1.5], "2024-01-02": [2]}`)), "dict[str, list[float]]"},
		{"keyed by UUIDs", list(dec(t, `{"550e8400-e29b-41d4-a716-446655440000": "a"}`)), "dict[str, str]"},
		{"keyed by hosts", list(dec(t, `{"example.com": 1, "example.org": 2}`)), "dict[str, int]"},
		{"keyed by names (same records)", list(dec(t, `{"alice": {"age": 1, "city": "x"}, "bob": {"age": 2, "city": "y"}, "carol": {"age": 3, "city": "z"}, "dave": {"age": 4, "city": "w"}}`)), "dict[str, {age: int, city: str}]"},
		{"many keys", list(many), "dict[str, int]"},
		{"keys varying between results", varying, "dict[str, int]"},
		{"a data key in a record is left out", list(dec(t, `{"id": 1, "name": "x", "2024-01-01": 3}`)), "{id: int, name: str, ...}"},
		{"keys that need quotes", list(dec(t, `{"content-type": "x", "@type": "y", "id": 1}`)), `{"content-type": str, "@type": str, id: int}`},
		{"Go map keys sorted", list(map[string]any{"b": int64(1), "a": "x"}), "{a: str, b: int}"},
		{"mixed types", list(dec(t, `[1, "a", 2]`)), "list[int | str]"},
		{"int and float", list(dec(t, `[1, 2.5]`)), "list[float]"},
		{"too many types", list(dec(t, `[1, "a", true, [1], {"a": 1}]`)), "list"},
		{"types across results", list(int64(1), "a"), "int | str"},
		{"empty list", list(list()), "list"},
		{"empty list, then elements", list(list(), list("a")), "list[str]"},
		{"empty dict", list(obj()), "dict"},
		{"list of lists", list(dec(t, `[[1, 2], [3]]`)), "list[list[int]]"},
		{"Go slices", list([]string{"a"}, []map[string]any{{"id": int64(1)}}), "list[str | {id: int}]"},
		{"unknown Go type", list(struct{ A int }{1}), "any"},
		{"json.Number", list(obj("a", json.Number("1"), "b", json.Number("1.5"))), "{a: int, b: float}"},
		{"depth is bounded", list(deep), "{a: {b: {c: dict}}}"},
		{"size is bounded", list(long), "{field_number_a: str, field_number_b: str, field_number_c: str, field_number_d: str, field_number_e: str, ...}"},
		{"list elements are sampled, the last included", list(append(repeat(obj("id", int64(1)), 99), obj("id", int64(2), "extra", true))), "list[{id: int, extra?: bool}]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := learned(t, Options{}, tc.results...)
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if len(got) > DefaultMaxChars {
				t.Errorf("%d characters, more than %d", len(got), DefaultMaxChars)
			}
		})
	}
}

func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestSecretKeys: a key that the configuration's redaction changes, or
// that redaction already replaced by a marker, is never kept; a dict of
// them is keyed by data.
func TestSecretKeys(t *testing.T) {
	redact := func(s string) string { return strings.ReplaceAll(s, "hunter22", "[secret:PW]") }
	o := Options{Redact: redact}
	if got, want := learned(t, o, dec(t, `{"id": 1, "hunter22": 2}`)), "dict[str, int]"; got != want {
		t.Errorf("half secret keys: got %s, want %s", got, want)
	}
	if got, want := learned(t, o, dec(t, `{"id": 1, "name": "a", "xhunter22x": 2}`)), "{id: int, name: str, ...}"; got != want {
		t.Errorf("one secret key: got %s, want %s", got, want)
	}
	if got, want := learned(t, o, dec(t, `{"id": 1, "name": "a", "[secret:PW]": 2}`)), "{id: int, name: str, ...}"; got != want {
		t.Errorf("a redaction marker as key: got %s, want %s", got, want)
	}
}

func TestDataKey(t *testing.T) {
	for _, k := range []string{"id", "name", "createdAt", "created_at", "x-request-id", "@type", "$ref", "v2", "sha256", "HTTPStatus", "ipv4_address", "a1b2"} {
		if dataKey(k) {
			t.Errorf("%q taken for data", k)
		}
	}
	for _, k := range []string{"", "42", "-1", "2024-01-01", "2024-01-01T10:00:00Z", "12:30", "ann@example.com", "550e8400-e29b-41d4-a716-446655440000",
		"d41d8cd98f00b204e9800998ecf8427e", "https://example.com", "/etc/passwd", "example.com", "John Smith", "ghp_A1b2C3d4E5f6G7h8I9j0", "héllo",
		strings.Repeat("a", maxKeyLen+1), "+33612345678"} {
		if !dataKey(k) {
			t.Errorf("%q taken for a name", k)
		}
	}
}

// TestSchemaFirst: a tool with an output schema or Returns shows that,
// not a learned shape, and says it was not seen; nothing known is "".
func TestSchemaFirst(t *testing.T) {
	l := New(nil, Options{})
	schema := &packs.Tool{Pack: "srv", Name: "get", OutputSchema: `{"type":"object","properties":{"a":{"type":"integer"}}}`}
	returns := &packs.Tool{Pack: "srv", Name: "ret", Returns: "list[str]"}
	for _, tl := range []*packs.Tool{schema, returns} {
		l.Observe(context.Background(), tl, dec(t, `{"zzz": 1}`))
		typ, seen := l.ResultType(tl)
		if seen || typ != tl.ReturnType() || strings.Contains(typ, "zzz") {
			t.Errorf("%s: got %q, %v; want %q, false", tl.ID(), typ, seen, tl.ReturnType())
		}
	}
	if typ, seen := l.ResultType(tool("srv.never")); typ != "" || seen {
		t.Errorf("never called: got %q, %v", typ, seen)
	}
	var nilLearner *Learner
	nilLearner.Observe(context.Background(), tool("srv.x"), 1)
	if typ, seen := nilLearner.ResultType(returns); typ != "list[str]" || seen {
		t.Errorf("nil learner: got %q, %v", typ, seen)
	}
}

// TestVersions: a new version of a tool learns afresh.
func TestVersions(t *testing.T) {
	l := New(nil, Options{})
	v1, v2 := tool("srv.fn"), tool("srv.fn")
	v2.Version = "2"
	l.Observe(context.Background(), v1, int64(1))
	l.Observe(context.Background(), v2, "a")
	if typ, _ := l.ResultType(v1); typ != "int" {
		t.Errorf("v1: %q", typ)
	}
	if typ, _ := l.ResultType(v2); typ != "str" {
		t.Errorf("v2: %q", typ)
	}
}

// TestSampling: once a shape has settled, most calls are not looked at,
// but a change still shows within a bounded number of calls.
func TestSampling(t *testing.T) {
	l := New(nil, Options{})
	tl := tool("srv.fn")
	for range 200 {
		l.Observe(context.Background(), tl, dec(t, `{"id": 1}`))
	}
	for range stride {
		l.Observe(context.Background(), tl, dec(t, `{"id": 1, "new": "x"}`))
	}
	if typ, _ := l.ResultType(tl); typ != "{id: int, new?: str}" {
		t.Errorf("got %q", typ)
	}
}

// TestBounds: whatever results come, the shape stays within its bounds
// of nodes, depth and rendered size, and merging is a join (order and
// repetition do not matter).
func TestBounds(t *testing.T) {
	// Records of records, each with keys of its own (so that none is
	// taken for a dict keyed by data): far more than maxNodes fields.
	var wide func(prefix string, depth int) any
	wide = func(prefix string, depth int) any {
		if depth == 0 {
			return int64(1)
		}
		m := ordered.NewMap(40)
		for i := range 40 {
			k := fmt.Sprintf("%s%c%c", prefix, 'a'+i/26, 'a'+i%26)
			m.Set(k, wide(k, depth-1))
		}
		return m
	}
	l := New(nil, Options{})
	tl := tool("srv.wide")
	l.Observe(context.Background(), tl, wide("k", 3))
	e := l.entry(tl)
	if n := e.shape.nodes(); n > maxNodes {
		t.Errorf("%d nodes, more than %d", n, maxNodes)
	}
	if d := e.shape.depth(); d > maxDepth+1 {
		t.Errorf("depth %d", d)
	}
	if e.shape.Limit == 0 {
		t.Errorf("the shape was not cut: %d nodes", e.shape.nodes())
	}
	// A later result is looked at no deeper than the cut: the shape does
	// not grow back.
	l.Observe(context.Background(), tl, wide("k", 3))
	if n := e.shape.nodes(); n > maxNodes {
		t.Errorf("after another result, %d nodes", n)
	}
	typ, _ := l.ResultType(tl)
	if len(typ) > DefaultMaxChars {
		t.Errorf("%d characters: %s", len(typ), typ)
	}
	// Merging is commutative and idempotent.
	a := (&walker{limit: maxDepth, secret: func(string) bool { return false }}).infer(dec(t, `[{"id": 1, "a": [1]}, {"id": "x"}]`), 0)
	b := (&walker{limit: maxDepth, secret: func(string) bool { return false }}).infer(dec(t, `[{"id": 2, "b": {"c": null}}]`), 0)
	ab, _ := merge(a.clone(), b)
	ba, _ := merge(b.clone(), a)
	aab, _ := merge(ab.clone(), a)
	r := func(s *shape) string { return render(s, 1000, func(string) bool { return false }) }
	if r(ab) != r(aab) {
		t.Errorf("not idempotent: %s vs %s", r(ab), r(aab))
	}
	if _, changed := merge(ab.clone(), a); changed {
		t.Errorf("merging what is known says changed")
	}
	sorted := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer(",", " ", "{", " ", "}", " ").Replace(s)), " ")
	}
	if len(r(ab)) != len(r(ba)) || !sameWords(sorted(r(ab)), sorted(r(ba))) {
		t.Errorf("not commutative: %s vs %s", r(ab), r(ba))
	}
}

func sameWords(a, b string) bool {
	count := map[string]int{}
	for _, w := range strings.Fields(a) {
		count[w]++
	}
	for _, w := range strings.Fields(b) {
		count[w]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
