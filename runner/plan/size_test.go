package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

func TestSize(t *testing.T) {
	om := ordered.NewMap(2)
	om.Set("id", int64(1))
	om.Set("name", "item1")
	long := strings.Repeat("x", 1000)
	type rec struct {
		Name string
		Tags []string
		n    int
	}
	tests := []struct {
		name string
		v    any
		want int64
	}{
		{"nil", nil, 16},
		{"int", int64(7), 16},
		{"string", "hello", 16 + 5},
		{"list", []any{"ab", int64(1)}, 16 + 24 + 2*16 + 2},
		{"map", map[string]any{"k": "v"}, 16 + 48 + 40 + 1 + 1},
		{"ordered map", om, 16 + 72 + 2*56 + 2 + 4 + 5},
		{"a long string shared", []any{long, long, long}, 16 + 24 + 3*16 + 1000},
		{"short strings count at each use", []any{"abc", "abc"}, 16 + 24 + 2*16 + 6},
		{"[]int", []int{1, 2, 3}, 16 + 24 + 3*8},
		{"struct pointer", &rec{Name: "ab", Tags: []string{"x"}}, 16 + int64(unsafeSizeofRec) + 2 + 24 + 16 + 1},
	}
	for _, tt := range tests {
		if got := Size(tt.v, 1<<30); got != tt.want {
			t.Errorf("%s: Size = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// unsafeSizeofRec is the inline size of TestSize's rec: a string, a
// slice and an int.
const unsafeSizeofRec = 16 + 24 + 8

// Whatever the value, the walk ends soon after the total passes the limit:
// shared sub-values (2^40 leaves), cycles, deep nesting and long lists.
func TestSizeIsBounded(t *testing.T) {
	dag := any("leaf")
	for range 40 {
		dag = []any{dag, dag}
	}
	cycle := []any{nil}
	cycle[0] = cycle
	m := map[string]any{}
	m["self"] = m
	deep := any(nil)
	for range 1_000_000 {
		deep = []any{deep}
	}
	type node struct{ Next *node }
	ring := &node{}
	ring.Next = ring
	const limit = 1 << 16
	for _, tt := range []struct {
		name string
		v    any
		most int64 // the total can pass limit by one container's slots
	}{
		{"dag", dag, 2 * limit}, {"list cycle", cycle, 2 * limit}, {"map cycle", m, 2 * limit},
		{"pointer cycle", ring, 2 * limit}, {"deep", deep, 2 * limit},
		{"long list", make([]any, 1_000_000), 16 + 24 + 16*1_000_000},
	} {
		start := time.Now()
		got := Size(tt.v, limit)
		if got <= limit || got > tt.most {
			t.Errorf("%s: Size = %d, want over %d, at most %d", tt.name, got, limit, tt.most)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%s: took %v", tt.name, d)
		}
	}
}
