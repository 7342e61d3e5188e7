package packs

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// agreeSchemas are schemas in the fast engine's subset, chosen to reach
// its corners: numeric bounds near float and int64 limits, decimal bounds
// that floats cannot represent, code-point lengths, nesting, closed
// objects, boolean schemas.
var agreeSchemas = []string{
	richSchema,
	`{"type":"object","properties":{
		"a":{"type":"number","minimum":0.1,"maximum":1e20},
		"b":{"type":"integer","exclusiveMinimum":-5,"exclusiveMaximum":9007199254740993},
		"c":{"enum":[1,2.5,"x",null,true,-0.0]},
		"d":{"const":0.1},
		"e":{"type":["integer","null"],"minimum":0.30000000000000004,"maximum":9223372036854775807},
		"f":{"type":"number","maximum":0.1000000000000000000001,"minimum":-1e400},
		"g":{"const":false},
		"h":{"const":null},
		"i":{"type":"integer","minimum":-9223372036854775808,"maximum":18446744073709551616}}}`,
	`{"type":"object","properties":{"l":{"type":"array","minItems":1,"items":{"type":"object",
		"properties":{"id":{"type":"integer"},"tags":{"type":"array","items":{"type":"string","pattern":"^a"},"maxItems":2}},
		"required":["id"],"additionalProperties":false}}},"required":["l"]}`,
	`{"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":1000,"default":3}},"additionalProperties":false}`,
	`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3},"t":{"enum":["a","é","日本"]},
		"u":{"type":["string","array","object","boolean"],"maxLength":1,"maxItems":1}},"required":["s","zz"]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":["object","array"],"items":{"type":"integer"},"properties":{"a":true,"b":false}}`,
	`{"type":"object","properties":{"x":{"type":"object","properties":{"y":{"type":"object","properties":{"z":{"type":"string"}},"required":["z"]}}}}}`,
}

// valueGen makes values from a byte stream, mostly in the shapes the
// schemas expect (their property names, numbers near their bounds).
type valueGen struct {
	data []byte
	keys []string
}

func (g *valueGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

var (
	genInts = []int64{0, 1, -1, 2, 3, 5, -5, -6, 10, 11, 1000, 1001, math.MaxInt64, math.MinInt64,
		1 << 53, 1<<53 + 1, 1<<53 + 2, -(1 << 53) - 1, 7, 100}
	genFloats = []float64{0.5, 1.0, 2.5, 0.1, 0.30000000000000004, 0.3, 1e300, -1e300, math.Copysign(0, -1),
		5e-324, 9007199254740993.0, 9007199254740992.0, 1e20, 1.0000000000000002e20, 0.10000000000000002,
		9.223372036854776e18, -9.223372036854776e18, 1.8446744073709552e19, 3.0, -5.0, 2.0000000000000004}
	genStrings = []string{"", "a", "ab", "abc", "abcd", "x", "é", "日本", "日本語", "aé", "ba", "fast", "slow", "Z", "a\x00"}
)

func (g *valueGen) value(depth int) any {
	n := g.byte()
	if depth > 3 {
		n %= 6
	}
	switch n % 9 {
	case 0:
		return nil
	case 1:
		return n&16 != 0
	case 2:
		return genInts[int(g.byte())%len(genInts)]
	case 3:
		return genFloats[int(g.byte())%len(genFloats)]
	case 4:
		if n&32 != 0 && len(g.data) >= 8 {
			f := math.Float64frombits(binary.LittleEndian.Uint64(g.data))
			g.data = g.data[8:]
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
		return int64(int8(g.byte()))
	case 5:
		return genStrings[int(g.byte())%len(genStrings)]
	case 6:
		list := []any{}
		for range int(g.byte() % 4) {
			list = append(list, g.value(depth+1))
		}
		return list
	case 7:
		return g.object(depth+1, n&64 != 0)
	default:
		return g.object(depth+1, false)
	}
}

func (g *valueGen) object(depth int, useOrdered bool) any {
	m := map[string]any{}
	for range int(g.byte() % 5) {
		k := g.keys[int(g.byte())%len(g.keys)]
		m[k] = g.value(depth)
	}
	if useOrdered {
		om := ordered.NewMap(len(m))
		for k, v := range m {
			om.Set(k, v)
		}
		return om
	}
	return m
}

// shaped makes a value that mostly follows schema node: the declared
// properties with values of the declared types, near their bounds, and
// now and then anything at all.
func (g *valueGen) shaped(node any, depth int) any {
	m, ok := node.(*ordered.Map)
	if !ok || depth > 4 || g.byte()%8 == 0 {
		return g.value(depth)
	}
	var types []string
	switch t, _ := m.Get("type"); t := t.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			types = append(types, e.(string))
		}
	}
	if list, ok := get[[]any](m, "enum"); ok && g.byte()%2 == 0 {
		return normalize(list[int(g.byte())%len(list)])
	}
	if len(types) == 0 {
		return g.value(depth)
	}
	switch types[int(g.byte())%len(types)] {
	case "object":
		obj := map[string]any{}
		if props, ok := get[*ordered.Map](m, "properties"); ok {
			for _, k := range props.Keys() {
				if g.byte()%4 != 0 {
					sub, _ := props.Get(k)
					obj[k] = g.shaped(sub, depth+1)
				}
			}
		}
		if g.byte()%8 == 0 {
			obj[g.keys[int(g.byte())%len(g.keys)]] = g.value(depth + 1)
		}
		if g.byte()%2 == 0 {
			om := ordered.NewMap(len(obj))
			for k, v := range obj {
				om.Set(k, v)
			}
			return om
		}
		return obj
	case "array":
		items, _ := m.Get("items")
		list := []any{}
		for range int(g.byte() % 4) {
			list = append(list, g.shaped(items, depth+1))
		}
		return list
	case "string":
		return genStrings[int(g.byte())%len(genStrings)]
	case "integer":
		return genInts[int(g.byte())%len(genInts)]
	case "number":
		if g.byte()%2 == 0 {
			return genInts[int(g.byte())%len(genInts)]
		}
		return genFloats[int(g.byte())%len(genFloats)]
	case "boolean":
		return g.byte()%2 == 0
	}
	return nil
}

// generate picks how to make a value from the first byte.
func (g *valueGen) generate(root any) any {
	switch g.byte() % 4 {
	case 0:
		return g.value(0)
	case 1:
		return g.object(0, false)
	}
	return g.shaped(root, 0)
}

// schemaKeys collects every property name in a schema, plus a few
// undeclared ones.
func schemaKeys(root any) []string {
	keys := []string{"other", "colour", "counts"}
	_ = walkSchema(root, "", func(m *ordered.Map, _ string) error {
		if props, ok := get[*ordered.Map](m, "properties"); ok {
			keys = append(keys, props.Keys()...)
		}
		if req, ok := get[[]any](m, "required"); ok {
			for _, r := range req {
				keys = append(keys, r.(string))
			}
		}
		return nil
	})
	return keys
}

type agreeCase struct {
	v    *validator
	keys []string
}

func agreeCases(t testing.TB) []agreeCase {
	var cases []agreeCase
	for i, s := range agreeSchemas {
		v, err := compileValidator("t.agree", "input", s, false)
		if err != nil {
			t.Fatalf("schema %d: %v", i, err)
		}
		if v.fast == nil {
			t.Fatalf("schema %d is not in the fast subset", i)
		}
		cases = append(cases, agreeCase{v: v, keys: schemaKeys(v.root)})
	}
	return cases
}

// checkAgree runs both engines on a value and fails on any difference in
// verdict or problems.
func checkAgree(t *testing.T, c agreeCase, x any) {
	t.Helper()
	fast, ok := c.v.fastCheck(x)
	if !ok {
		t.Fatalf("fast engine declined %#v", x)
	}
	slow := c.v.slowCheck(x)
	if (fast == nil) != (slow == nil) {
		t.Fatalf("verdicts differ for %s: fast valid=%v, library valid=%v\nfast %v\nslow %v",
			literal(x), fast == nil, slow == nil, fast, slow)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("problems differ for %s:\nfast %v\nslow %v", literal(x), fast, slow)
	}
}

// TestValidateAgree is the deterministic half of FuzzValidateAgree: many
// generated values against every schema.
func TestValidateAgree(t *testing.T) {
	cases := agreeCases(t)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, c := range cases {
		for range n {
			data := make([]byte, 64)
			for j := range data {
				data[j] = byte(rng.UintN(256))
			}
			g := &valueGen{data: data, keys: c.keys}
			checkAgree(t, c, g.generate(c.v.root))
		}
	}
}

// FuzzValidateAgree checks that the fast engine and the JSON Schema
// library agree, verdict and messages, on generated values.
func FuzzValidateAgree(f *testing.F) {
	f.Add(uint8(0), []byte{7, 2, 0, 2, 1})
	f.Add(uint8(1), []byte{8, 3, 3, 3, 4, 2, 9})
	f.Add(uint8(2), []byte{8, 1, 6, 6, 3, 8, 2, 4, 2})
	f.Add(uint8(4), []byte{8, 2, 3, 5, 7, 4, 5, 8})
	cases := agreeCases(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		c := cases[int(which)%len(cases)]
		g := &valueGen{data: data, keys: c.keys}
		checkAgree(t, c, g.generate(c.v.root))
	})
}
