package plan

import (
	"reflect"
	"unsafe"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Size estimates the bytes a plan value holds: step arguments as given and
// step results, which are trees of strings, numbers, []any, map[string]any
// and *ordered.Map (anything else is measured through reflection). It is
// an estimate of what Go allocates, not an exact count: 16 bytes for each
// interface slot, a string's header and bytes, container headers.
//
// The walk keeps its own stack, so no nesting can overflow Go's, and stops
// as soon as the total passes limit, which must be positive: every value
// visited adds to the total, so even a cycle of pointers ends. A container
// counts the slots of all its elements before any is visited, so the
// stack never holds more than limit/16 values and the cost of the walk is
// bounded by the budget it checks, not by the value. Containers shared
// many times over count at every visit, as copying or converting them
// costs; the bytes of a long string count once, since strings are shared,
// never copied, when values are converted.
func Size(v any, limit int64) int64 {
	s := sizer{total: slot, limit: limit}
	s.stack = append(s.stack, v)
	for len(s.stack) > 0 && !s.over() {
		v := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		s.visit(v)
	}
	return s.total
}

// slot is the size of an interface value: what a container spends per
// element before the element's own bytes.
const slot = 16

type sizer struct {
	stack []any
	total int64
	limit int64
	seen  map[*byte]bool // long strings counted
}

// text counts a string's bytes; a long one only the first time.
func (s *sizer) text(str string) {
	if len(str) >= 256 {
		p := unsafe.StringData(str)
		if s.seen[p] {
			return
		}
		if s.seen == nil {
			s.seen = map[*byte]bool{}
		}
		s.seen[p] = true
	}
	s.total += int64(len(str))
}

func (s *sizer) over() bool { return s.total > s.limit }

// visit counts what v owns beyond the slot that holds it, and pushes the
// values it contains.
func (s *sizer) visit(v any) {
	switch x := v.(type) {
	case nil, bool, int, int64, float64:
	case string:
		s.text(x)
	case []byte:
		s.total += 24 + int64(len(x))
	case []any:
		s.total += 24 + slot*int64(len(x))
		if !s.over() {
			s.stack = append(s.stack, x...)
		}
	case []string:
		s.total += 24 + slot*int64(len(x))
		for _, e := range x {
			if s.over() {
				break
			}
			s.text(e)
		}
	case map[string]any:
		// Key and value slots plus a word of overhead per entry.
		s.total += 48 + (2*slot+8)*int64(len(x))
		for k, e := range x {
			if s.over() {
				break
			}
			s.total += int64(len(k))
			s.stack = append(s.stack, e)
		}
	case *ordered.Map:
		if x == nil {
			return
		}
		// As a map, plus each key again in the order list.
		s.total += 72 + (3*slot+8)*int64(x.Len())
		x.Range(func(k string, e any) bool {
			s.total += int64(len(k))
			s.stack = append(s.stack, e)
			return !s.over()
		})
	default:
		s.reflected(reflect.ValueOf(v))
	}
}

// reflected is visit for values of other types.
func (s *sizer) reflected(rv reflect.Value) {
	switch rv.Kind() {
	case reflect.String:
		s.text(rv.String())
	case reflect.Slice, reflect.Array:
		et := rv.Type().Elem()
		if rv.Kind() == reflect.Slice {
			s.total += 24 + max(int64(et.Size()), 8)*int64(rv.Len())
		}
		if scalar(et.Kind()) {
			return
		}
		for i := 0; i < rv.Len() && !s.over(); i++ {
			s.push(rv.Index(i))
		}
	case reflect.Map:
		t := rv.Type()
		s.total += 48 + int64(t.Key().Size()+t.Elem().Size()+8)*int64(rv.Len())
		for it := rv.MapRange(); it.Next() && !s.over(); {
			s.push(it.Key())
			s.push(it.Value())
		}
	case reflect.Pointer:
		if !rv.IsNil() {
			s.total += int64(rv.Type().Elem().Size())
			s.push(rv.Elem())
		}
	case reflect.Interface:
		if !rv.IsNil() {
			s.push(rv.Elem())
		}
	case reflect.Struct:
		for i := 0; i < rv.NumField() && !s.over(); i++ {
			s.push(rv.Field(i))
		}
	}
}

// push queues rv's contents, unless it holds no memory of its own or
// cannot be read (an unexported field: its inline size is counted).
func (s *sizer) push(rv reflect.Value) {
	if scalar(rv.Kind()) || !rv.CanInterface() {
		return
	}
	s.stack = append(s.stack, rv.Interface())
}

func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	}
	return false
}
