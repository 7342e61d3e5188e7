package interp

import (
	"cmp"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	gotime "time"

	starlarktime "go.starlark.net/lib/time"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// This file is the one place where values cross between Starlark and Go
// (SPEC §2.6). Tool arguments go Starlark→Go through ToGo, tool results come
// back through FromGo, and Format renders a run's result through ToGo, so
// every layer agrees on what a value looks like as JSON. Both directions are
// type switches over the common cases, with reflection only as a fallback:
// every tool call crosses this boundary twice.

// maxDepth bounds how deeply nested a converted value may be. It matches
// the limit of package ordered, so that anything ToGo accepts can also be
// encoded, and it turns a value that contains itself into an error instead
// of a Go stack overflow.
const maxDepth = 1000

// GoValuer is implemented by Starlark values that know their Go (JSON) form,
// e.g. path objects (a string) or tool results. ToGo and Format use it.
//
// GoValue should return plain Go data (the kinds ToGo produces, or anything
// FromGo accepts); ToGo passes it on unchanged, without descending into it.
type GoValuer interface{ GoValue() (any, error) }

// StarlarkValuer is implemented by Starlark values that convert as
// another Starlark value does (a deque as the list of its elements, a
// namedtuple as the dict of its fields). ToGo converts that value in
// their place, at the same depth and under the same budget, so that a
// value containing itself is an error, not the Go stack overflow that a
// GoValue calling ToGo afresh at every level would meet. Such values
// implement GoValuer too, for code that knows only that.
type StarlarkValuer interface{ StarlarkValue() starlark.Value }

// ToGo converts a Starlark value to plain Go data, the form tools receive
// and the form that is encoded as JSON:
//
//	Starlark           Go                   JSON
//	None               nil                  null
//	bool               bool                 true/false
//	int                int64                number
//	float              float64              number
//	str, bytes         string               string
//	list, tuple, set   []any                array
//	dict, struct       *ordered.Map         object
//	GoValuer           its GoValue()        (as that is)
//
// Dicts keep their insertion order, structs their (sorted) field order.
//
// Values with no JSON form are errors: functions and other callables,
// modules, ints beyond int64, dicts with non-string keys, and values nested
// more than 1000 levels deep or containing themselves. Floats NaN and ±Inf
// are passed through as float64; it is ordered.Encode that rejects them,
// so Go tools that accept them still can.
//
// Values of go.starlark.net/lib/time become strings: a time in RFC 3339
// form, a duration as Go prints it ("1.5s").
func ToGo(v starlark.Value) (any, error) {
	return toGo(v, 0, nil)
}

// ToGoBudget is ToGo charging its work to b: a value built from shared
// parts (a tuple doubled forty times) becomes a tree with a part for every
// visit, so each visit counts, and the conversion stops when the run's
// time, steps or memory are spent.
func ToGoBudget(b *Budget, v starlark.Value) (any, error) {
	switch v.(type) {
	case starlark.String, *Unicode, starlark.Int, starlark.Bool, starlark.Float, starlark.NoneType:
		return toGo(v, 0, nil) // a scalar costs nothing to walk: most tool arguments
	}
	if b == nil {
		return toGo(v, 0, nil)
	}
	return toGo(v, 0, &conv{b: b})
}

// conv is the state of a budgeted conversion: the bytes of Go data made
// so far, held to the run's memory budget.
type conv struct {
	b    *Budget
	size int64
}

// made counts n slots of the Go value being built.
func (c *conv) made(n int) error {
	c.size += int64(n) * slot
	if max := c.b.MaxMemory(); max > 0 && c.size > max {
		return c.b.trip(errMemory)
	}
	return c.b.Charge(uint64(n) + 1)
}

func toGo(v starlark.Value, depth int, b *conv) (any, error) {
	// The limit is the one package ordered applies to every value, scalars
	// included, so that what ToGo returns can always be encoded.
	if depth > maxDepth {
		return nil, &depthError{at: v}
	}
	// Scalars first: they are most of what crosses.
	switch x := v.(type) {
	case starlark.String:
		return string(x), nil
	case *Unicode:
		return x.s, nil
	case starlark.Int:
		if i, ok := x.Int64(); ok {
			return i, nil
		}
		return nil, fmt.Errorf("integer %s does not fit in 64 bits (JSON numbers are limited to int64)", x)
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Float:
		return float64(x), nil
	case starlark.Bytes:
		return string(x), nil
	case Bytes:
		return string(x), nil
	case *ByteArray:
		return string(x.b), nil
	case nil:
		// A nil Value is not valid Starlark, but Go code building values by
		// hand can produce one (an unset struct field); None is its meaning.
		return nil, nil
	}

	out, err := toGoContainer(v, depth+1, b)
	if err != nil {
		var de *depthError
		if errors.As(err, &de) && !de.cyclic {
			switch {
			case !isContainer(de.at):
				// The limit was met at a scalar: let the innermost container
				// stand for it, so that its ancestors can recognise it.
				de.at = v
			case sameContainer(v, de.at):
				de.cyclic = true
			}
		}
		return nil, err
	}
	return out, nil
}

// toGoContainer converts the non-scalar values; depth is that of their
// elements.
func toGoContainer(v starlark.Value, depth int, b *conv) (any, error) {
	if b != nil {
		if n, ok := v.(starlark.Sequence); ok {
			if err := b.made(n.Len()); err != nil {
				return nil, err
			}
		}
	}
	switch x := v.(type) {
	case *starlark.Dict:
		// Items costs two allocations whatever the size; ranging over
		// Entries costs more, as the loop body becomes a heap closure.
		m := ordered.NewMap(x.Len())
		for _, kv := range x.Items() {
			ks, ok := AsText(kv[0])
			if !ok {
				return nil, fmt.Errorf("dict key %s (%s) is not a string", kv[0], kv[0].Type())
			}
			g, err := toGo(kv[1], depth, b)
			if err != nil {
				return nil, err
			}
			m.Set(string(ks), g)
		}
		return m, nil
	case *starlark.List:
		out := make([]any, x.Len())
		for i := range out {
			g, err := toGo(x.Index(i), depth, b)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case starlark.Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := toGo(e, depth, b)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case *starlarkstruct.Struct:
		// Struct fields are kept sorted by name; that is the order we keep.
		m := ordered.NewMap(x.Len())
		for i := range x.Len() {
			name, e := x.AttrAt(i)
			g, err := toGo(e, depth, b)
			if err != nil {
				return nil, err
			}
			m.Set(name, g)
		}
		return m, nil
	case *starlark.Set:
		out := make([]any, 0, x.Len())
		var order []starlark.Value
		if SetOrder != nil {
			var bud *Budget
			if b != nil {
				bud = b.b
			}
			var err error
			if order, err = SetOrder(bud, x); err != nil {
				return nil, err
			}
		}
		if order == nil {
			order = make([]starlark.Value, 0, x.Len())
			for e := range x.Elements() {
				order = append(order, e)
			}
		}
		for _, e := range order {
			g, err := toGo(e, depth, b)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case StarlarkValuer:
		return toGo(x.StarlarkValue(), depth, b)
	case GoValuer:
		g, err := goValue(x)
		if err != nil {
			return nil, fmt.Errorf("cannot convert %s to JSON: %w", v.Type(), err)
		}
		return g, nil
	case starlarktime.Time:
		return gotime.Time(x).Format(gotime.RFC3339Nano), nil
	case starlarktime.Duration:
		return gotime.Duration(x).String(), nil
	}
	return nil, fmt.Errorf("cannot convert %s to JSON (a %s value)", v.Type(), v.Type())
}

// goValue calls GoValue, turning a panic in it into an error: GoValue is
// code of packs and tools, and one bad value must not take down a run, or
// the Format call that promises never to fail.
func goValue(x GoValuer) (g any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GoValue panicked: %v", r)
		}
	}()
	return x.GoValue()
}

// depthError reports a value nested beyond maxDepth. at is the value found
// at the limit; as the error travels back up, each container compares
// itself with it, and one that is the same container proves a cycle, which
// deserves a clearer message than "too deep".
type depthError struct {
	at     starlark.Value
	cyclic bool
}

func (e *depthError) Error() string {
	if e.cyclic {
		return fmt.Sprintf("cannot convert to JSON: a %s contains itself", e.at.Type())
	}
	return fmt.Sprintf("cannot convert to JSON: value nested more than %d levels deep", maxDepth)
}

// Unwrap lets callers test for errors.Is(err, ordered.ErrDepth), the same
// condition as reported by package ordered.
func (e *depthError) Unwrap() error { return ordered.ErrDepth }

func isContainer(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct, starlark.Tuple:
		return true
	}
	return false
}

// sameContainer reports whether a and b are the same mutable container (or
// the same tuple), comparing identity, never contents.
func sameContainer(a, b starlark.Value) bool {
	switch a := a.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct:
		return a == b // different dynamic types compare unequal, never panic
	case starlark.Tuple:
		bt, ok := b.(starlark.Tuple)
		return ok && len(a) > 0 && len(a) == len(bt) && &a[0] == &bt[0]
	}
	return false
}

// FromGo converts Go data to a Starlark value. It accepts what ToGo and
// ordered.Decode produce and most of what Go tools return:
//
//   - nil and nil pointers → None; bool; every int, uint and float kind
//     (a uint64 beyond int64 becomes a big int); string and []byte → str;
//     json.Number → int if it is an integer that fits int64, else float;
//   - []any and other slices and arrays → list (a nil slice is an empty list);
//   - *ordered.Map → dict in its order; map[string]any and other maps with
//     string keys → dict with keys sorted, so output never depends on Go's
//     map order (a nil map is an empty dict);
//   - a starlark.Value is returned unchanged;
//   - time.Time → its RFC 3339 string;
//   - structs, maps with other keys and types with MarshalJSON or
//     MarshalText → encoding/json, then decoded keeping key order, so field
//     order and json tags are respected.
//
// Channels, functions and complex numbers are errors naming the Go type, as
// are values nested more than 1000 levels deep (or cyclic).
//
// The result is not frozen: a program may modify what a tool returned.
func FromGo(x any) (starlark.Value, error) {
	return fromGo(x, 0)
}

func fromGo(x any, depth int) (starlark.Value, error) {
	// The same limit as ordered.Decode, so that all it decodes converts.
	if depth > maxDepth {
		return nil, fmt.Errorf("cannot convert Go value to Starlark: %w", ordered.ErrDepth)
	}
	switch x := x.(type) {
	case nil:
		return starlark.None, nil
	case string:
		return MakeString(x), nil
	case int64:
		return starlark.MakeInt64(x), nil
	case int:
		return starlark.MakeInt(x), nil
	case bool:
		return starlark.Bool(x), nil
	case float64:
		return starlark.Float(x), nil
	case int32:
		return starlark.MakeInt64(int64(x)), nil
	case int16:
		return starlark.MakeInt64(int64(x)), nil
	case int8:
		return starlark.MakeInt64(int64(x)), nil
	case uint:
		return starlark.MakeUint(x), nil
	case uint64:
		return starlark.MakeUint64(x), nil
	case uint32:
		return starlark.MakeUint64(uint64(x)), nil
	case uint16:
		return starlark.MakeUint64(uint64(x)), nil
	case uint8:
		return starlark.MakeUint64(uint64(x)), nil
	case uintptr:
		return starlark.MakeUint64(uint64(x)), nil
	case float32:
		return starlark.Float(float32to64(x)), nil
	case json.Number:
		return fromNumber(x)
	case []byte:
		return MakeString(string(x)), nil
	case gotime.Time:
		return starlark.String(x.Format(gotime.RFC3339Nano)), nil
	case starlark.Value:
		return x, nil
	}

	depth++
	switch x := x.(type) {
	case []any:
		elems := make([]starlark.Value, len(x))
		for i, e := range x {
			v, err := fromGo(e, depth)
			if err != nil {
				return nil, err
			}
			elems[i] = v
		}
		return starlark.NewList(elems), nil
	case *ordered.Map:
		d := starlark.NewDict(x.Len())
		var err error
		x.Range(func(k string, e any) bool {
			var v starlark.Value
			if v, err = fromGo(e, depth); err == nil {
				err = d.SetKey(MakeString(k), v)
			}
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return d, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := starlark.NewDict(len(x))
		for _, k := range keys {
			v, err := fromGo(x[k], depth)
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(MakeString(k), v); err != nil {
				return nil, err
			}
		}
		return d, nil
	case []string:
		elems := make([]starlark.Value, len(x))
		for i, s := range x {
			elems[i] = MakeString(s)
		}
		return starlark.NewList(elems), nil
	case []map[string]any:
		elems := make([]starlark.Value, len(x))
		for i, m := range x {
			v, err := fromGo(m, depth)
			if err != nil {
				return nil, err
			}
			elems[i] = v
		}
		return starlark.NewList(elems), nil
	}
	return fromReflect(x, depth)
}

// fromReflect handles every Go type without a case of its own; depth is
// that of the elements.
func fromReflect(x any, depth int) (starlark.Value, error) {
	// A type that says how it looks as JSON is taken at its word, before
	// reflection looks inside it (big.Int, json.RawMessage, netip.Addr…).
	switch x.(type) {
	case json.Marshaler, encoding.TextMarshaler:
		return fromJSON(x, depth)
	}

	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return starlark.None, nil
		}
		return fromGo(rv.Elem().Interface(), depth)
	case reflect.Bool:
		return starlark.Bool(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return starlark.MakeInt64(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return starlark.MakeUint64(rv.Uint()), nil
	case reflect.Float32:
		return starlark.Float(float32to64(float32(rv.Float()))), nil
	case reflect.Float64:
		return starlark.Float(rv.Float()), nil
	case reflect.String:
		return MakeString(rv.String()), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return MakeString(string(rv.Bytes())), nil
		}
		elems := make([]starlark.Value, rv.Len())
		for i := range elems {
			v, err := fromGo(rv.Index(i).Interface(), depth)
			if err != nil {
				return nil, err
			}
			elems[i] = v
		}
		return starlark.NewList(elems), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			// encoding/json knows how to turn int and TextMarshaler keys
			// into strings.
			return fromJSON(x, depth)
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return cmp.Compare(a.String(), b.String())
		})
		d := starlark.NewDict(len(keys))
		for _, k := range keys {
			v, err := fromGo(rv.MapIndex(k).Interface(), depth)
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(MakeString(k.String()), v); err != nil {
				return nil, err
			}
		}
		return d, nil
	case reflect.Struct:
		return fromJSON(x, depth)
	}
	return nil, fmt.Errorf("cannot convert Go value of type %T to Starlark", x)
}

// fromJSON converts x by way of encoding/json, decoding with ordered so
// that object keys keep the order json.Marshal wrote them in (struct field
// order, sorted map keys).
func fromJSON(x any, depth int) (starlark.Value, error) {
	data, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("cannot convert Go value of type %T to Starlark: %w", x, err)
	}
	g, err := ordered.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("cannot convert Go value of type %T to Starlark: %w", x, err)
	}
	return fromGo(g, depth)
}

// fromNumber follows ordered.Decode: an integer that fits int64 is an int,
// anything else a float.
func fromNumber(n json.Number) (starlark.Value, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return starlark.MakeInt64(i), nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON number %q: %w", string(n), err)
	}
	return starlark.Float(f), nil
}

// float32to64 widens f to the float64 with the same shortest decimal form,
// so float32(0.1) becomes 0.1 rather than 0.10000000149011612, as
// encoding/json prints it.
func float32to64(f float32) float64 {
	g, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil { // NaN and ±Inf parse back fine; this is only a guard
		return float64(f)
	}
	return g
}
