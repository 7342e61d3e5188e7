// Package ordered holds the Go form of a Starlark dict or JSON object: a
// string-keyed map that remembers insertion order, with JSON encoding and
// decoding that keep that order.
//
// onetool promises that a dict a program builds, or an object a tool
// returns, comes back to the model with its keys in the same order; Go's
// map[string]any cannot keep that promise, so every layer that carries
// values (interp's conversion, tool results, upstream MCP results) uses Map.
package ordered

// Map is a string-keyed map that iterates in insertion order. Setting an
// existing key keeps its position. The zero value is an empty map ready to
// use. A Map is not safe for concurrent mutation.
type Map struct {
	keys []string
	vals map[string]any
}

// NewMap returns an empty Map with room for n entries.
func NewMap(n int) *Map {
	return &Map{keys: make([]string, 0, n), vals: make(map[string]any, n)}
}

// Set stores v under key, appending key if it is new.
func (m *Map) Set(key string, v any) {
	if m.vals == nil {
		m.vals = make(map[string]any)
	}
	if _, ok := m.vals[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = v
}

// Get returns the value stored under key.
func (m *Map) Get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.vals[key]
	return v, ok
}

// Delete removes key, keeping the order of the others.
func (m *Map) Delete(key string) {
	if m == nil {
		return
	}
	if _, ok := m.vals[key]; !ok {
		return
	}
	delete(m.vals, key)
	for i, k := range m.keys {
		if k == key {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
}

// Len reports the number of entries.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}

// Keys returns the keys in order. The slice belongs to the map: do not
// modify it.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return m.keys
}

// Range calls f for each entry in order until f returns false.
func (m *Map) Range(f func(key string, v any) bool) {
	if m == nil {
		return
	}
	for _, k := range m.keys {
		if !f(k, m.vals[k]) {
			return
		}
	}
}

// Plain returns a deep copy of v in which every *Map is a map[string]any,
// for code that only understands plain Go values (JSON Schema validators,
// encoding/json users). Order is lost; values are not otherwise changed.
func Plain(v any) any {
	switch x := v.(type) {
	case *Map:
		out := make(map[string]any, x.Len())
		x.Range(func(k string, v any) bool {
			out[k] = Plain(v)
			return true
		})
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = Plain(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}

// Clone returns a deep copy of v, keeping *Map values ordered. Callers that
// hand out a cached or shared value use it so that mutating the copy can
// never change the original.
func Clone(v any) any {
	switch x := v.(type) {
	case *Map:
		out := NewMap(x.Len())
		x.Range(func(k string, v any) bool {
			out.Set(k, Clone(v))
			return true
		})
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = Clone(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}
