package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// KeptCheck sees what a session keeps after each input; when it refuses,
// the input fails with its error and the session forgets everything it
// kept, the variables a function keeps in cells (global) included, and
// the check is told 0.
func TestSessionKeptCheck(t *testing.T) {
	r := newRunner(t)
	errTooMuch := errors.New("too much kept")
	var sizes []uint64
	s := r.NewSession(KeptCheck(func(n uint64) error {
		sizes = append(sizes, n)
		if n > 1<<20 {
			return errTooMuch
		}
		return nil
	}))
	ctx := context.Background()
	if res := s.Exec(ctx, "small = 'x' * 1000"); res.IsError() {
		t.Fatal(res.Text)
	}
	if last := sizes[len(sizes)-1]; last < 1000 || last > 64<<10 {
		t.Errorf("a session keeping 1000 bytes was measured at %d", last)
	}
	for name, code := range map[string]string{
		"global":      "big = 'ab' * (1 << 20)",
		"global cell": "def grow():\n    global big\n    big = 'ab' * (1 << 20)\ngrow()",
	} {
		t.Run(name, func(t *testing.T) {
			res := s.Exec(ctx, code)
			if !errors.Is(res.Err, errTooMuch) {
				t.Fatalf("input keeping 2 MiB: %s", res.Text)
			}
			if sizes[len(sizes)-1] != 0 {
				t.Errorf("after the clearing the check was told %d, want 0", sizes[len(sizes)-1])
			}
			for _, v := range []string{"big", "small"} {
				if res := s.Exec(ctx, v); !strings.Contains(res.Text, "'"+v+"' is not defined") {
					t.Errorf("after the clearing %s: %.80s", v, res.Text)
				}
			}
			s.Exec(ctx, "small = 'x' * 1000")
		})
	}
}

// A session whose variables outgrow limits.max_memory forgets them all,
// those a function keeps in a cell (global) too: the cell would otherwise
// hand the value back at the next input, and the memory would stay held.
func TestSessionMemoryClearsCells(t *testing.T) {
	r := newRunner(t, WithLimits(Limits{MaxMemory: 8 << 20}))
	s := r.NewSession()
	ctx := context.Background()
	if res := s.Exec(ctx, "def grow():\n    global big\n    big = 'ab' * (3 << 20)\ngrow()"); res.IsError() {
		t.Fatalf("6 MiB kept in a cell: %s", res.Text)
	}
	res := s.Exec(ctx, "more = 'cd' * (1 << 20)")
	if !strings.Contains(res.Text, "memory limit of 8 MiB exceeded by the variables this session keeps") {
		t.Fatalf("2 MiB more: %s", res.Text)
	}
	if res := s.Exec(ctx, "len(big)"); !strings.Contains(res.Text, "'big' is not defined") {
		t.Errorf("after the clearing: %.100s", res.Text)
	}
}
