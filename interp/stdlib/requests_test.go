package stdlib

import (
	"fmt"
	"testing"
	"time"
)

// A hostile server's megabyte of headers (100,000 short ones, most of
// them one name repeated) becomes a header map in linear time: each
// name is found through an index and a repeated header's values are
// joined once, not copied at every repeat.
func TestHeaderMapManyHeaders(t *testing.T) {
	hs := make([][2]string, 0, 100_000)
	for i := range 100_000 {
		name := "Set-Cookie"
		if i%2 == 0 {
			name = fmt.Sprintf("X-H%d", i)
		}
		hs = append(hs, [2]string{name, "v"})
	}
	start := time.Now()
	m := newHeaderMap(false, hs)
	if d := time.Since(start); d > time.Second {
		t.Errorf("100,000 headers took %v", d)
	}
	if v, _ := m.lookup("set-cookie"); len(v) != 50_000*3-2 {
		t.Errorf("the repeated header joins to %d bytes, want %d", len(v), 50_000*3-2)
	}
	if m.Len() != 50_001 {
		t.Errorf("%d entries, want 50,001", m.Len())
	}
	m.del("x-h0")
	if _, ok := m.lookup("X-H2"); !ok || m.Len() != 50_000 {
		t.Error("the index is wrong after a deletion")
	}
}
