package interp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// The memory bombs of the issue: a string doubled 40 times (a terabyte if
// nothing stopped it) and a list grown without end. Each must end with the
// memory error, not take the process down.
func TestMemoryBombs(t *testing.T) {
	w := NewWatchdog()
	for _, code := range []string{
		"s = \"x\"\nfor i in range(40):\n    s = s + s\nlen(s)",
		"def f():\n    s = \"x\"\n    for i in range(40):\n        s += s\n    return len(s)\nf()",
		"l = []\nwhile True:\n    l.append(\"%d\" % len(l) * 20)",
		"d = {}\nfor i in range(100000000):\n    d[i] = [i] * 10",
		"s = \"ab\"\nparts = [s]\nwhile True:\n    parts = parts + parts",
	} {
		t.Run(strings.SplitN(code, "\n", 2)[1], func(t *testing.T) {
			_, err := run(t, code, Options{MaxMemory: 64 << 20, Watchdog: w, Timeout: 20 * time.Second})
			if !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrLimit) {
				t.Fatalf("error = %v, want the memory limit", err)
			}
			if got := err.Error(); got != "memory limit of 64 MiB exceeded (set limits.max_memory to raise it)" {
				t.Errorf("message = %q", got)
			}
		})
	}
}

// A bomb ends alone: runs beside it that hold little finish normally.
func TestMemoryBombSparesOtherRuns(t *testing.T) {
	w := NewWatchdog()
	opts := Options{MaxMemory: 64 << 20, Watchdog: w, Timeout: 20 * time.Second}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	var others []error
	done := 0
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// Busy enough to be mid-run at every alarm.
				_, err := run(t, "t = 0\nfor i in range(20000):\n    t += len(str(i))\nt", opts)
				mu.Lock()
				done++
				if err != nil {
					others = append(others, err)
				}
				mu.Unlock()
			}
		})
	}
	for range 3 {
		_, err := run(t, "s = \"x\"\nfor i in range(40):\n    s = s + s", opts)
		if !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("bomb: error = %v, want the memory limit", err)
		}
	}
	close(stop)
	wg.Wait()
	if len(others) > 0 {
		t.Errorf("%d of %d concurrent runs failed, first: %v", len(others), done, others[0])
	}
	if done == 0 {
		t.Error("no concurrent run finished")
	}
}

// Values that are shared count once: a list holding the same large string
// a thousand times is not a thousand strings.
func TestMemorySharedValuesCountOnce(t *testing.T) {
	w := NewWatchdog()
	code := "big = \"x\" * (8 << 20)\nl = [big] * 1000\nkeep = []\nfor i in range(300):\n    keep.append(\"y\" * (1 << 20))\nlen(l)"
	res, err := run(t, code, Options{MaxMemory: 400 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("error = %v", err)
	}
	if res.Value.String() != "1000" {
		t.Errorf("value = %s", res.Value)
	}
}

// Without a watchdog MaxMemory is not kept, and the watchdog stops its
// goroutine when no run is left.
func TestWatchdogStopsWhenIdle(t *testing.T) {
	w := NewWatchdog()
	if _, err := Exec(context.Background(), "1", Options{MaxMemory: 1 << 20, Watchdog: w}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		w.mu.Lock()
		running := w.running
		w.mu.Unlock()
		if !running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("watchdog goroutine still running with no run")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A deep recursion holds its memory in the goroutine's stack, not in
// values: it counts against the budget all the same, so that a run cannot
// take hundreds of MiB of stack that no budget saw.
func TestMemoryCountsTheStack(t *testing.T) {
	w := NewWatchdog()
	code := "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nf(90000)"
	_, err := run(t, code, Options{MaxMemory: 16 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if !errors.Is(err, ErrMemoryLimit) {
		t.Fatalf("error = %v, want the memory limit", err)
	}
	// The same depth within a budget that holds it runs to the end.
	res, err := run(t, code, Options{MaxMemory: 512 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if err != nil || res.Value.String() != "90000" {
		t.Fatalf("= %v, %v; want 90000", res.Value, err)
	}
}

// TestMeterCountsWhatGoAllocates: for each kind of structure a program
// can build, the meter's estimate is within a factor of the heap Go
// actually uses for it. A meter that counted a dict as 80 bytes (it takes
// 512) let a dict nested ten million deep hold four times the budget.
func TestMeterCountsWhatGoAllocates(t *testing.T) {
	const n = 100_000
	large := new(big.Int).Lsh(big.NewInt(1), 200)
	tests := []struct {
		name  string
		build func() starlark.Value
	}{
		{"list nested deep", func() starlark.Value {
			var x starlark.Value = starlark.NewList(nil)
			for range n {
				x = starlark.NewList([]starlark.Value{x})
			}
			return x
		}},
		{"dict nested deep", func() starlark.Value {
			var x starlark.Value = starlark.NewDict(0)
			for range n {
				d := starlark.NewDict(1)
				_ = d.SetKey(starlark.String("k"), x)
				x = d
			}
			return x
		}},
		{"tuple nested deep", func() starlark.Value {
			var x starlark.Value = starlark.Tuple{}
			for i := range n {
				x = starlark.Tuple{x, starlark.MakeInt(i)}
			}
			return x
		}},
		{"dict of ints", func() starlark.Value {
			d := starlark.NewDict(0)
			for i := range n {
				_ = d.SetKey(starlark.MakeInt(i), starlark.MakeInt(i))
			}
			return d
		}},
		{"set of texts", func() starlark.Value {
			s := starlark.NewSet(0)
			for i := range n {
				_ = s.Insert(starlark.String(fmt.Sprintf("item-%d", i)))
			}
			return s
		}},
		{"list of big ints", func() starlark.Value {
			l := starlark.NewList(nil)
			for i := range n {
				_ = l.Append(starlark.MakeBigInt(new(big.Int).Add(large, big.NewInt(int64(i)))))
			}
			return l
		}},
		{"list of floats", func() starlark.Value {
			l := starlark.NewList(nil)
			for i := range n {
				_ = l.Append(starlark.Float(float64(i) + 0.5))
			}
			return l
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := liveHeapNow()
			v := tt.build()
			used := liveHeapNow() - before
			est := sessionSize(starlark.StringDict{"v": v}, 1<<40)
			runtime.KeepAlive(v)
			ratio := float64(est) / float64(used)
			t.Logf("estimate %d, heap %d (%.2f)", est, used, ratio)
			if ratio < 0.85 || ratio > 1.25 {
				t.Errorf("the meter says %d bytes, Go uses %d (%.2f times)", est, used, ratio)
			}
		})
	}
}

// liveHeapNow is the live heap after a collection.
func liveHeapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSharedTuplesCountOnce: forty tuples that each hold the one below
// twice are forty tuples to the meter, not 2**40 (which would end a run
// that holds them with a memory error it does not deserve).
func TestSharedTuplesCountOnce(t *testing.T) {
	var x starlark.Value = starlark.Tuple{starlark.MakeInt(1)}
	for range 40 {
		x = starlark.Tuple{x, x}
	}
	if got := sessionSize(starlark.StringDict{"x": x}, 1<<40); got > 10_000 {
		t.Errorf("40 shared tuples counted as %d bytes", got)
	}
}

// TestComprehensionCountsAgainstMemory: the list a comprehension is
// building lives on the interpreter's operand stack, not in a variable;
// the meter reads that stack (see frameSlots), so a comprehension of a
// billion elements ends at the memory budget, not at the deadline. If a
// new go.starlark.net lays frames out otherwise, the canary fails first.
func TestComprehensionCountsAgainstMemory(t *testing.T) {
	if !stackLayoutOK() {
		t.Fatal("the operand stack of go.starlark.net's frames is no longer where frameSlots reads it; see framestack.go")
	}
	for _, code := range []string{
		"len([x for x in range(1000000000)])",
		"def f():\n    return len([str(x) for x in range(1000000000)])\nf()",
		"len({x: x for x in range(1000000000)})",
		"len([[x] for x in range(1000000000)])",
	} {
		_, err := run(t, code, Options{MaxMemory: 64 << 20, Watchdog: NewWatchdog(), Timeout: 60 * time.Second})
		if !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("%q: error = %v, want the memory limit", code, err)
		}
	}
}

// TestHeldValuesCount: what a builtin is building, held with HoldValues,
// counts against the memory budget while it builds; a builtin that fills
// a slice from an endless source ends at the budget.
func TestHeldValuesCount(t *testing.T) {
	g := testGlobals()
	g["build"] = NewBuiltin("build", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		b := BudgetOf(th)
		var out []starlark.Value
		defer b.HoldValues(&out)()
		for i := 0; ; i++ {
			if err := b.Charge(8); err != nil {
				return nil, err
			}
			out = append(out, starlark.String(fmt.Sprintf("%0100d", i)))
		}
	})
	_, err := run(t, "build()", Options{Predeclared: g, MaxMemory: 64 << 20, Watchdog: NewWatchdog(), Timeout: 60 * time.Second})
	if !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("error = %v, want the memory limit", err)
	}
}

// TestBulkIsALowerBound: bulk, which answers the watchdog's alarms
// between paced walks, counts the arrays, tables and texts a run holds
// directly (a list shared by two names once), and never more than the
// walk counts, so that it can end a run only where a walk would.
func TestBulkIsALowerBound(t *testing.T) {
	g := testGlobals()
	var gotBulk, gotWalk uint64
	g["probe"] = NewBuiltin("probe", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		gotBulk, gotWalk = bulk(th, nil), reachable(th, math.MaxUint64, nil)
		return starlark.None, nil
	})
	const code = "big = list(range(1000000))\nsame = big\ntext = 'x' * 3000000\nsmall = [1, 2, 3]\nd = {i: i for i in range(100000)}\nprobe()"
	if _, err := run(t, code, Options{Predeclared: g}); err != nil {
		t.Fatal(err)
	}
	least := uint64(1000000*16 + 3000000 + 100000*16)
	if gotBulk < least || gotBulk > least*3/2 {
		t.Errorf("bulk = %d, want about %d (the list once, the text, the dict's table)", gotBulk, least)
	}
	if gotBulk > gotWalk {
		t.Errorf("bulk = %d, more than the walk's %d", gotBulk, gotWalk)
	}
}

// TableGrowth, asked at every insertion, agrees with TableBytes.
func TestTableGrowth(t *testing.T) {
	for n := 0; n < 1<<21; n++ {
		if got, want := TableGrowth(n), TableBytes(n+1)-TableBytes(n); got != want {
			t.Fatalf("TableGrowth(%d) = %d, want %d", n, got, want)
		}
	}
}

// A walk of the values allocates next to nothing, whatever their size:
// what the watchdog's bound counts is the process's allocations, so a
// walk that copied a 200 MB bytearray (string(b)) asked for the next walk
// itself, and a program that held one timed out on print(1).
func TestMeterWalkAllocatesLittle(t *testing.T) {
	big := NewZeroByteArray(32 << 20)
	text := starlark.String(strings.Repeat("x", 32<<20))
	globals := starlark.StringDict{"a": big, "b": text, "c": Bytes(text), "l": starlark.NewList([]starlark.Value{big, text})}
	sessionSize(globals, 1<<40) // the meter's own tables, made once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := sessionSize(globals, 1<<40)
	runtime.ReadMemStats(&after)
	if got < 64<<20 {
		t.Errorf("the meter counts %d bytes, want the 64 MiB held", got)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("a walk allocated %d bytes", n)
	}
}
