package pyrt

import (
	"errors"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialBytes checks bytes (str, indexing, iteration,
// operators, bytes(), methods, fromhex, int.from_bytes and to_bytes)
// against what CPython gives for the same expressions
// (testdata/bytes_cases.txt; regenerate the answers with
// go test ./interp/pyrt -run DifferentialBytes -update).
func TestDifferentialBytes(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/bytes_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// TestBytesStayWithinBudgets: every bytes operation that makes a value
// from a size or a count refuses one beyond the memory budget before it
// is made, and the scans are charged, so a loop of them meets the step
// budget.
func TestBytesStayWithinBudgets(t *testing.T) {
	checkBounded(t, []boundCase{
		{"bytes of a count", "bytes(10**12)", "memory limit of 16 MiB exceeded"},
		{"repetition", `b"x" * 10**9`, "memory limit of 16 MiB exceeded"},
		{"repetition, count first", `10**9 * b"xy"`, "memory limit of 16 MiB exceeded"},
		{"bytes of a range", "bytes(range(256)) * 10**6", "memory limit of 16 MiB exceeded"},
		{"hex of a large value", `(b"x" * 10**7).hex()`, "memory limit of 16 MiB exceeded"},
		{"hex with separators", `(b"x" * 6 * 10**6).hex(":")`, "memory limit of 16 MiB exceeded"},
		{"replace everywhere", `(b"x" * 10**6).replace(b"x", b"y" * 1000)`, "memory limit of 16 MiB exceeded"},
		{"join with a long separator", `(b"x" * 10**6).join([b"a"] * 100)`, "memory limit of 16 MiB exceeded"},
		{"padding", `b"x".center(10**9)`, "memory limit of 16 MiB exceeded"},
		{"to_bytes of a long length", `(1).to_bytes(10**12, "big")`, "memory limit of 16 MiB exceeded"},
		{"bytearray of a count", "bytearray(10**12)", "memory limit of 16 MiB exceeded"},
		{"bytearray extended past memory", "ba = bytearray(b'x' * 10**7)\nba.extend(ba)", "memory limit of 16 MiB exceeded"},
		{"from_bytes of a huge number", `int.from_bytes(b"\xff" * 10**6, "big")`, "integer size limit of 5000 digits exceeded"},
	})
}

// TestBytesScansAreCharged: fromhex, find and count of a large value,
// over and over, end with the step budget, not after the deadline.
func TestBytesScansAreCharged(t *testing.T) {
	for _, code := range []string{
		"s = '00' * 4000000\nfor i in range(10**6):\n    bytes.fromhex(s)",
		"s = b'x' * 8000000\nfor i in range(10**6):\n    s.find(b'y')",
		"s = b'x' * 8000000\nfor i in range(10**6):\n    s.count(b'y')",
	} {
		_, err := run(t, code, interp.Options{Timeout: 20 * time.Second, MaxSteps: 10_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
		if !errors.Is(err, interp.ErrStepLimit) {
			t.Errorf("%q: %v, want the step limit", code, err)
		}
	}
}
