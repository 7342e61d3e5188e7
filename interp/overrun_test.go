package interp

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// stuckGlobals has stuck(ms): a builtin that ignores its run's context and
// budget for ms milliseconds, as a Go call that cannot be interrupted
// does.
func stuckGlobals() (starlark.StringDict, chan struct{}) {
	returned := make(chan struct{}, 8)
	g := StdGlobals()
	d := starlark.StringDict{}
	for k, v := range g {
		d[k] = v
	}
	d["stuck"] = starlark.NewBuiltin("stuck", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		ms, _ := starlark.AsInt32(args[0])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		returned <- struct{}{}
		return starlark.None, nil
	})
	d.Freeze()
	return d, returned
}

// The answer to a run whose deadline passes inside a Go call that ignores
// it comes at the deadline, not when the call returns (SPEC §8.1).
func TestAnswerAtTheDeadline(t *testing.T) {
	g, returned := stuckGlobals()
	start := time.Now()
	_, err := Exec(context.Background(), "x = 1\nstuck(1000)", Options{Predeclared: g, Timeout: 100 * time.Millisecond})
	took := time.Since(start)
	if took > 100*time.Millisecond+overrunGrace+150*time.Millisecond {
		t.Errorf("answered after %s", took)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "timed out after 100ms") {
		t.Fatalf("error %v", err)
	}
	for _, cause := range []error{ErrTimeout, ErrLimit, ErrOverrun, context.DeadlineExceeded} {
		if !errors.Is(err, cause) {
			t.Errorf("%v does not match %v", err, cause)
		}
	}
	<-returned
	// A cancellation is answered the same way.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start = time.Now()
	_, err = Exec(ctx, "stuck(1000)", Options{Predeclared: g})
	if took := time.Since(start); took > 50*time.Millisecond+overrunGrace+150*time.Millisecond {
		t.Errorf("cancellation answered after %s", took)
	}
	if err == nil || err.Error() != "cancelled" || !errors.Is(err, ErrCancelled) || !errors.Is(err, ErrOverrun) {
		t.Errorf("cancelled: %v", err)
	}
	<-returned
}

// A run that stops on its own within the grace is not an overrun: its
// error has the line, as always.
func TestTimeoutInStarlarkIsNoOverrun(t *testing.T) {
	_, err := Exec(context.Background(), "x = 0\nwhile True:\n    x += 1", Options{Timeout: 50 * time.Millisecond})
	if err == nil || errors.Is(err, ErrOverrun) || !regexp.MustCompile(`^timed out after 50ms at line [23] `).MatchString(err.Error()) {
		t.Errorf("error %v", err)
	}
}

// A session whose input overran stays busy until the Go call returns: the
// next input waits for it (or gives up when its own context ends), and
// then runs in the globals as they were left.
func TestSessionWaitsForOverrun(t *testing.T) {
	g, returned := stuckGlobals()
	s := NewSession(g, "")
	if _, err := s.Run(context.Background(), "x = 1", Options{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Run(context.Background(), "x = 2\nstuck(500)\nx = 3", Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrOverrun) {
		t.Fatalf("first input: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = s.Run(ctx, "x", Options{})
	if err == nil || !strings.Contains(err.Error(), "previous input was still stopping") || !errors.Is(err, ErrCancelled) {
		t.Errorf("while stopping: %v", err)
	}
	<-returned
	res, err := s.Run(context.Background(), "x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The thread was cancelled at the deadline: `x = 3` never ran.
	if res.Text != "2" {
		t.Errorf("x = %s, want 2", res.Text)
	}
}
