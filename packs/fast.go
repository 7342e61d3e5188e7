package packs

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// fastSchema is a schema compiled for the subset of JSON Schema that tool
// parameters nearly always use: type, properties, required,
// additionalProperties (true or false), enum and const of scalars, the
// numeric bounds, minLength, maxLength, pattern, items, minItems and
// maxItems; annotations are ignored. Validation walks Go values directly,
// allocating nothing when they are valid.
//
// Its verdicts and messages agree with the JSON Schema library's
// (FuzzValidateAgree checks it), including the library's numerics: a
// number's value is that of its shortest decimal form, integers are
// numbers with no fractional part (1.0 is an integer), and strings are
// measured in code points.
type fastSchema struct {
	never   bool // the schema false
	trivial bool // no constraints at all: every value is valid

	types     typeMask // 0: any type
	typeNames []string // as declared, for messages

	enum     []constant
	enumMsg  string
	hasConst bool
	constant constant
	constMsg string

	min, max, exMin, exMax *bound

	minLen, maxLen int // -1: absent
	pattern        *regexp.Regexp
	patternText    string

	props         []fastProp
	propNames     []string
	requiredExtra []string // required names without a property schema
	closed        bool     // additionalProperties: false

	items              *fastSchema
	minItems, maxItems int // -1: absent
}

type fastProp struct {
	name     string
	schema   *fastSchema
	required bool
}

type typeMask uint8

const (
	tNull typeMask = 1 << iota
	tBool
	tInt
	tNumber // non-integral numbers; "number" sets tInt too
	tString
	tArray
	tObject
)

var typeBits = map[string]typeMask{
	"null": tNull, "boolean": tBool, "integer": tInt, "number": tNumber | tInt,
	"string": tString, "array": tArray, "object": tObject,
}

// kind is the JSON type of a Go value, as the library classifies it.
type kind uint8

const (
	kUnsupported kind = iota // not a value the fast engine handles
	kNull
	kBool
	kInt // integral numbers, including float64 ones
	kFloat
	kString
	kArray
	kObject
)

var kindMask = [...]typeMask{kNull: tNull, kBool: tBool, kInt: tInt, kFloat: tNumber, kString: tString, kArray: tArray, kObject: tObject}

var kindNames = [...]string{kNull: "null", kBool: "boolean", kInt: "integer", kFloat: "number", kString: "string", kArray: "array", kObject: "object"}

// number is a numeric value: an exact integer, or a finite float.
type number struct {
	i       int64
	f       float64
	isFloat bool
}

func classify(v any) (kind, number) {
	switch x := v.(type) {
	case nil:
		return kNull, number{}
	case bool:
		return kBool, number{}
	case string:
		return kString, number{}
	case int64:
		return kInt, number{i: x}
	case int:
		return kInt, number{i: int64(x)}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return kUnsupported, number{}
		}
		if x == math.Trunc(x) {
			return kInt, number{f: x, isFloat: true}
		}
		return kFloat, number{f: x, isFloat: true}
	case []any:
		return kArray, number{}
	case map[string]any, *ordered.Map:
		return kObject, number{}
	case int32:
		return kInt, number{i: int64(x)}
	case int16:
		return kInt, number{i: int64(x)}
	case int8:
		return kInt, number{i: int64(x)}
	case uint32:
		return kInt, number{i: int64(x)}
	case uint16:
		return kInt, number{i: int64(x)}
	case uint8:
		return kInt, number{i: int64(x)}
	case uint:
		if uint64(x) <= math.MaxInt64 {
			return kInt, number{i: int64(x)}
		}
	case uint64:
		if x <= math.MaxInt64 {
			return kInt, number{i: int64(x)}
		}
	}
	// json.Number, float32, typed slices and maps, structs: the library's
	// rules for these are its own; let it decide.
	return kUnsupported, number{}
}

func lookup(obj any, key string) (any, bool) {
	switch o := obj.(type) {
	case map[string]any:
		v, ok := o[key]
		return v, ok
	case *ordered.Map:
		return o.Get(key)
	}
	return nil, false
}

func objectLen(obj any) int {
	switch o := obj.(type) {
	case map[string]any:
		return len(o)
	case *ordered.Map:
		return o.Len()
	}
	return 0
}

func objectKeys(obj any) []string {
	switch o := obj.(type) {
	case map[string]any:
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		return keys
	case *ordered.Map:
		return o.Keys()
	}
	return nil
}

// compileFast compiles node for the fast engine; ok is false when it uses
// anything outside the subset.
func compileFast(node any, root bool) (f *fastSchema, ok bool) {
	switch n := node.(type) {
	case bool:
		return &fastSchema{never: !n, trivial: n, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}, true
	case *ordered.Map:
		f = &fastSchema{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
		var required []string
		for _, key := range n.Keys() {
			v, _ := n.Get(key)
			switch key {
			case "type":
				if !f.compileType(v) {
					return nil, false
				}
			case "properties":
				props, isMap := v.(*ordered.Map)
				if !isMap {
					return nil, false
				}
				for _, name := range props.Keys() {
					sub, _ := props.Get(name)
					child, ok := compileFast(sub, false)
					if !ok {
						return nil, false
					}
					f.props = append(f.props, fastProp{name: name, schema: child})
					f.propNames = append(f.propNames, name)
				}
			case "required":
				list, isList := v.([]any)
				if !isList {
					return nil, false
				}
				for _, r := range list {
					s, isStr := r.(string)
					if !isStr {
						return nil, false
					}
					required = append(required, s)
				}
			case "additionalProperties":
				b, isBool := v.(bool)
				if !isBool {
					return nil, false
				}
				f.closed = !b
			case "enum":
				list, isList := v.([]any)
				if !isList || len(list) == 0 { // the library ignores an empty enum
					return nil, false
				}
				for _, e := range list {
					c, ok := newConstant(e)
					if !ok {
						return nil, false
					}
					f.enum = append(f.enum, c)
				}
				f.enumMsg = msgEnum(list)
			case "const":
				c, ok := newConstant(v)
				if !ok {
					return nil, false
				}
				f.hasConst, f.constant, f.constMsg = true, c, msgConst(v)
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				num, isNum := v.(json.Number)
				if !isNum { // draft-04 boolean exclusive bounds
					return nil, false
				}
				b, ok := newBound(num)
				if !ok {
					return nil, false
				}
				switch key {
				case "minimum":
					f.min = b
				case "maximum":
					f.max = b
				case "exclusiveMinimum":
					f.exMin = b
				default:
					f.exMax = b
				}
			case "minLength", "maxLength", "minItems", "maxItems":
				c, ok := count(v)
				if !ok {
					return nil, false
				}
				switch key {
				case "minLength":
					f.minLen = c
				case "maxLength":
					f.maxLen = c
				case "minItems":
					f.minItems = c
				default:
					f.maxItems = c
				}
			case "pattern":
				s, isStr := v.(string)
				if !isStr {
					return nil, false
				}
				re, err := regexp.Compile(s)
				if err != nil {
					return nil, false
				}
				f.pattern, f.patternText = re, s
			case "items":
				if _, isList := v.([]any); isList {
					return nil, false
				}
				child, ok := compileFast(v, false)
				if !ok {
					return nil, false
				}
				f.items = child
			case "$schema":
				if s, _ := v.(string); !root || !subsetDialects[s] {
					return nil, false
				}
			case "title", "description", "default", "examples", "$comment",
				"deprecated", "readOnly", "writeOnly", "format":
				// Annotations. The library asserts no formats by default.
			default:
				return nil, false
			}
		}
		for _, r := range required {
			found := false
			for i := range f.props {
				if f.props[i].name == r {
					f.props[i].required, found = true, true
				}
			}
			if !found {
				f.requiredExtra = append(f.requiredExtra, r)
			}
		}
		f.trivial = f.types == 0 && f.enum == nil && !f.hasConst && f.min == nil && f.max == nil &&
			f.exMin == nil && f.exMax == nil && f.minLen < 0 && f.maxLen < 0 && f.pattern == nil &&
			f.props == nil && f.requiredExtra == nil && !f.closed && f.items == nil && f.minItems < 0 && f.maxItems < 0
		return f, true
	}
	return nil, false
}

// subsetDialects are the $schema values under which the subset's keywords
// mean what the fast engine implements.
var subsetDialects = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema": true, "http://json-schema.org/draft/2020-12/schema": true,
	"https://json-schema.org/draft/2020-12/schema#": true, "http://json-schema.org/draft/2020-12/schema#": true,
	"https://json-schema.org/draft/2019-09/schema": true, "http://json-schema.org/draft/2019-09/schema": true,
	"https://json-schema.org/draft/2019-09/schema#": true, "http://json-schema.org/draft/2019-09/schema#": true,
	"http://json-schema.org/draft-07/schema#": true, "http://json-schema.org/draft-07/schema": true,
	"https://json-schema.org/draft-07/schema#": true, "https://json-schema.org/draft-07/schema": true,
}

func (f *fastSchema) compileType(v any) bool {
	names, isList := v.([]any)
	if !isList {
		names = []any{v}
	}
	for _, n := range names {
		s, _ := n.(string)
		bit, ok := typeBits[s]
		if !ok {
			return false
		}
		f.types |= bit
		f.typeNames = append(f.typeNames, s)
	}
	return len(names) > 0
}

// bound is a numeric limit. rat is its exact value; i and f are shortcuts
// for comparing machine numbers when they give the exact answer.
type bound struct {
	rat   *big.Rat
	text  string // as the library prints it, for messages
	i     int64
	isInt bool // rat is an integer that fits in int64
	f     float64
	isF   bool // rat is the shortest-decimal value of f
}

func newBound(n json.Number) (*bound, bool) {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, false
	}
	b := &bound{rat: r, text: formatRat(r)}
	if r.IsInt() && r.Num().IsInt64() {
		b.i, b.isInt = r.Num().Int64(), true
	}
	if f, _ := r.Float64(); !math.IsInf(f, 0) {
		if back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); ok && back.Cmp(r) == 0 {
			b.f, b.isF = f, true
		}
	}
	return b, true
}

// cmp compares a number with the bound, as exact rationals. A float's
// value is that of its shortest decimal form (the library's rule); two
// floats compare the same way as their shortest forms, because each form
// lies within its float's rounding interval.
func (b *bound) cmp(n number) int {
	if !n.isFloat {
		if b.isInt {
			return compareInts(n.i, b.i)
		}
		if b.isF && n.i >= -1<<53 && n.i <= 1<<53 {
			return compareFloats(float64(n.i), b.f)
		}
		return new(big.Rat).SetInt64(n.i).Cmp(b.rat)
	}
	if b.isF {
		return compareFloats(n.f, b.f)
	}
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(n.f, 'g', -1, 64))
	return r.Cmp(b.rat)
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareFloats(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// formatRat prints r as the library does: exact decimals when they
// terminate, else a fraction.
func formatRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	twos := d.TrailingZeroBits()
	d.Rsh(d, twos)
	five, q, m := big.NewInt(5), new(big.Int), new(big.Int)
	var fives uint
	for {
		q.QuoRem(d, five, m)
		if m.Sign() != 0 {
			break
		}
		d.Set(q)
		fives++
	}
	if !d.IsInt64() || d.Int64() != 1 {
		return r.RatString()
	}
	return r.FloatString(int(max(twos, fives)))
}

// constant is a scalar enum or const value.
type constant struct {
	k   kind // kNull, kBool, kString or kInt (any number)
	b   bool
	s   string
	num *bound
}

func newConstant(v any) (constant, bool) {
	switch x := v.(type) {
	case nil:
		return constant{k: kNull}, true
	case bool:
		return constant{k: kBool, b: x}, true
	case string:
		return constant{k: kString, s: x}, true
	case json.Number:
		b, ok := newBound(x)
		return constant{k: kInt, num: b}, ok
	}
	return constant{}, false // arrays and objects: the library compares them
}

func (c *constant) equal(v any, k kind, n number) bool {
	switch c.k {
	case kNull:
		return k == kNull
	case kBool:
		b, ok := v.(bool)
		return ok && b == c.b
	case kString:
		s, ok := v.(string)
		return ok && s == c.s
	}
	return (k == kInt || k == kFloat) && c.num.cmp(n) == 0
}

func (f *fastSchema) inEnum(v any, k kind, n number) bool {
	for i := range f.enum {
		if f.enum[i].equal(v, k, n) {
			return true
		}
	}
	return false
}

// valid reports whether v satisfies f, stopping at the first failure.
// supported is false when v holds a value the fast engine does not handle
// where it matters; the caller then asks the library.
func (f *fastSchema) valid(v any) (ok, supported bool) {
	if f.trivial {
		return true, true
	}
	if f.never {
		return false, true
	}
	k, n := classify(v)
	if k == kUnsupported {
		return false, false
	}
	if f.types != 0 && f.types&kindMask[k] == 0 {
		return false, true
	}
	if f.enum != nil && !f.inEnum(v, k, n) {
		return false, true
	}
	if f.hasConst && !f.constant.equal(v, k, n) {
		return false, true
	}
	switch k {
	case kInt, kFloat:
		if (f.min != nil && f.min.cmp(n) < 0) || (f.max != nil && f.max.cmp(n) > 0) ||
			(f.exMin != nil && f.exMin.cmp(n) <= 0) || (f.exMax != nil && f.exMax.cmp(n) >= 0) {
			return false, true
		}
	case kString:
		s := v.(string)
		if f.minLen >= 0 || f.maxLen >= 0 {
			l := utf8.RuneCountInString(s)
			if (f.minLen >= 0 && l < f.minLen) || (f.maxLen >= 0 && l > f.maxLen) {
				return false, true
			}
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			return false, true
		}
	case kArray:
		list := v.([]any)
		if (f.minItems >= 0 && len(list) < f.minItems) || (f.maxItems >= 0 && len(list) > f.maxItems) {
			return false, true
		}
		if f.items != nil {
			for _, e := range list {
				if ok, sup := f.items.valid(e); !ok {
					return false, sup
				}
			}
		}
	case kObject:
		matched := 0
		for i := range f.props {
			p := &f.props[i]
			pv, present := lookup(v, p.name)
			if !present {
				if p.required {
					return false, true
				}
				continue
			}
			matched++
			if ok, sup := p.schema.valid(pv); !ok {
				return false, sup
			}
		}
		for _, r := range f.requiredExtra {
			if _, present := lookup(v, r); !present {
				return false, true
			}
		}
		if f.closed && matched != objectLen(v) {
			return false, true
		}
	}
	return true, true
}

// explain appends every failure of v, the way the library reports them:
// every keyword that applies to v's type is checked, failing or not. It
// returns false when it meets a value the fast engine does not handle.
func (f *fastSchema) explain(v any, path []seg, out *[]problem) bool {
	add := func(p []seg, keyword, msg string) {
		*out = append(*out, problem{path: p, keyword: keyword, msg: msg})
	}
	if f.trivial {
		return true
	}
	if f.never {
		add(path, "false", msgFalse)
		return true
	}
	k, n := classify(v)
	if k == kUnsupported {
		return false
	}
	if f.types != 0 && f.types&kindMask[k] == 0 {
		add(path, "type", msgType(f.typeNames, kindNames[k]))
	}
	if f.enum != nil && !f.inEnum(v, k, n) {
		add(path, "enum", f.enumMsg)
	}
	if f.hasConst && !f.constant.equal(v, k, n) {
		add(path, "const", f.constMsg)
	}
	switch k {
	case kInt, kFloat:
		if f.min != nil && f.min.cmp(n) < 0 {
			add(path, "minimum", msgBound(">=", f.min.text))
		}
		if f.max != nil && f.max.cmp(n) > 0 {
			add(path, "maximum", msgBound("<=", f.max.text))
		}
		if f.exMin != nil && f.exMin.cmp(n) <= 0 {
			add(path, "exclusiveMinimum", msgBound(">", f.exMin.text))
		}
		if f.exMax != nil && f.exMax.cmp(n) >= 0 {
			add(path, "exclusiveMaximum", msgBound("<", f.exMax.text))
		}
	case kString:
		s := v.(string)
		l := utf8.RuneCountInString(s)
		if f.minLen >= 0 && l < f.minLen {
			add(path, "minLength", msgLength(true, strconv.Itoa(f.minLen)))
		}
		if f.maxLen >= 0 && l > f.maxLen {
			add(path, "maxLength", msgLength(false, strconv.Itoa(f.maxLen)))
		}
		if f.pattern != nil && !f.pattern.MatchString(s) {
			add(path, "pattern", msgPattern(f.patternText))
		}
	case kArray:
		list := v.([]any)
		if f.minItems >= 0 && len(list) < f.minItems {
			add(path, "minItems", msgItems(true, strconv.Itoa(f.minItems)))
		}
		if f.maxItems >= 0 && len(list) > f.maxItems {
			add(path, "maxItems", msgItems(false, strconv.Itoa(f.maxItems)))
		}
		if f.items != nil {
			for i, e := range list {
				if !f.items.explain(e, appendSeg(path, seg{index: i, isIdx: true}), out) {
					return false
				}
			}
		}
	case kObject:
		declared := map[string]bool{}
		for i := range f.props {
			p := &f.props[i]
			declared[p.name] = true
			child := appendSeg(path, seg{key: p.name})
			pv, present := lookup(v, p.name)
			if !present {
				if p.required {
					add(child, "required", msgRequired)
				}
				continue
			}
			if !p.schema.explain(pv, child, out) {
				return false
			}
		}
		for _, r := range f.requiredExtra {
			if _, present := lookup(v, r); !present {
				add(appendSeg(path, seg{key: r}), "required", msgRequired)
			}
		}
		if f.closed {
			for _, key := range objectKeys(v) {
				if !declared[key] {
					add(appendSeg(path, seg{key: key}), "additionalProperties", msgUnknownProperty(key, f.propNames))
				}
			}
		}
	}
	return true
}
