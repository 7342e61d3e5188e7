package isolate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// Each worker runs under its hard memory limit (RLIMIT_DATA), and one that
// reaches it (a builtin allocating without asking any budget) dies alone:
// the run says why, the pool replaces the worker, and the next run works.
func TestPoolHardMemoryKillsWorker(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's shadow memory counts against the limit: no worker starts under it")
	}
	p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1, HardMemory: 256 << 20})
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Fatalf("first run: %q", res.Text)
	}
	live, _ := p.Workers()
	if len(live) != 1 {
		t.Fatalf("%d workers", len(live))
	}
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", live[0].PID()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dataLimit(string(limits)), fmt.Sprint(256<<20, " ", 256<<20); got != want {
		t.Errorf("the worker's data limit is %q, want %q", got, want)
	}
	res := p.Exec(context.Background(), Run{Code: "alloc"})
	want := "Error: the worker process running this program was stopped by its hard memory limit of 256 MiB; it has been replaced"
	if res.Text != want || !errors.Is(res.Err, ErrWorker) || !errors.Is(res.Err, interp.ErrMemoryLimit) || !errors.Is(res.Err, interp.ErrLimit) {
		t.Errorf("got %q (%v)", res.Text, res.Err)
	}
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Errorf("next run: %q", res.Text)
	}
}

// A hard limit the operator set lower (ulimit -d) is kept, not refused:
// raising it would fail and leave no worker at all.
func TestSetMemoryLimitKeepsALowerOne(t *testing.T) {
	if os.Getenv("ISOLATE_TEST_RLIMIT") != "1" {
		runSelf(t, "TestSetMemoryLimitKeepsALowerOne", "ISOLATE_TEST_RLIMIT=1")
		return
	}
	// In a child process: lowering a limit cannot be undone.
	if err := setMemoryLimit(3 << 30); err != nil {
		t.Fatal(err)
	}
	if err := setMemoryLimit(4 << 30); err != nil {
		t.Fatalf("a higher limit than the hard one: %v", err)
	}
	if err := setMemoryLimit(2 << 30); err != nil {
		t.Fatal(err)
	}
	limits, _ := os.ReadFile("/proc/self/limits")
	if got, want := dataLimit(string(limits)), fmt.Sprint(2<<30, " ", 2<<30); got != want {
		t.Errorf("data limit %q, want %q", got, want)
	}
}

// dataLimit is "soft hard" of the Max data size line of /proc/PID/limits.
func dataLimit(limits string) string {
	for _, l := range strings.Split(limits, "\n") {
		if rest, ok := strings.CutPrefix(l, "Max data size"); ok {
			f := strings.Fields(rest)
			if len(f) >= 2 {
				return f[0] + " " + f[1]
			}
		}
	}
	return ""
}
