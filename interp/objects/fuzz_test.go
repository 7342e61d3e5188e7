package objects_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// FuzzClasses runs mutated class programs under small budgets: whatever
// the program, the run ends (with its output or an error, never a Go
// panic turned into "internal error") within the deadline.
func FuzzClasses(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.py")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(string(src))
		}
	}
	for _, tc := range caught {
		f.Add(tc.code)
	}
	for _, tc := range bounded {
		f.Add(tc.code)
	}
	f.Add("class A:\n    x = 1\nclass B(A):\n    def __eq__(s, o): return s is o\nprint({B(): 1}, B() == A(), A.x)")
	f.Add("class C:\n    __slots__ = ('a',)\n    def __init__(self): self.a = [self]\nc = C()\nprint(c.a[0] is c, repr(c)[:10])")
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		_, err := run(src, interp.Options{Timeout: 2 * time.Second, MaxSteps: 200_000, MaxMemory: 32 << 20, MaxOutput: 1 << 16, Watchdog: interp.NewWatchdog()})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%q: %v", src, err)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Fatalf("%q took %s", src, d)
		}
	})
}
