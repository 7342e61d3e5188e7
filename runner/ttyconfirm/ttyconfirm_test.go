package ttyconfirm

import (
	"bufio"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
)

// terminal opens a pseudo-terminal: the Terminal of the side a program
// sees, and the side a person types into.
func terminal(t *testing.T) (Terminal, *os.File, *bufio.Reader) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no pseudo-terminals on Windows")
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	return func() (*os.File, error) { return os.OpenFile(tty.Name(), os.O_RDWR, 0) }, ptmx, bufio.NewReader(ptmx)
}

// readUntil reads what the terminal shows up to and including end.
func readUntil(t *testing.T, r *bufio.Reader, end string) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		var b strings.Builder
		for !strings.HasSuffix(b.String(), end) {
			c, err := r.ReadByte()
			if err != nil {
				break
			}
			b.WriteByte(c)
		}
		got <- b.String()
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(5 * time.Second):
		t.Fatalf("the terminal never showed %q", end)
		return ""
	}
}

func request() runner.ConfirmRequest {
	return runner.ConfirmRequest{Tool: &packs.Tool{Pack: "file", Name: "delete"}, Args: map[string]any{"path": "notes.txt"}}
}

// The answer decides, and the default is No: y and yes (any case) allow
// the call; n, an empty line, Ctrl-D, anything else decline it with the message
// MCP clients get for a declined call.
func TestAnswers(t *testing.T) {
	for _, tc := range []struct {
		typed string
		allow bool
	}{
		{"y\n", true}, {"Y\n", true}, {"yes\n", true}, {" YES \n", true},
		{"n\n", false}, {"\n", false}, {"no\n", false}, {"yy\n", false}, {"sure\n", false}, {"\x04", false},
	} {
		tty, ptmx, screen := terminal(t)
		done := make(chan error, 1)
		go func() { done <- New(tty)(context.Background(), request()) }()
		shown := readUntil(t, screen, "[y/N] ")
		if want := `onetool wants to run file.delete(path="notes.txt"), which is marked destructive: it may overwrite or delete. Allow it? [y/N] `; shown != want {
			t.Errorf("question %q, want %q", shown, want)
		}
		ptmx.Write([]byte(tc.typed))
		err := <-done
		switch {
		case tc.allow && err != nil:
			t.Errorf("%q: %v, want the call allowed", tc.typed, err)
		case !tc.allow && (!errors.Is(err, runner.ErrNotConfirmed) || err.Error() != "not confirmed: the user declined file.delete; do not retry it unless the user asks"):
			t.Errorf("%q: %v, want the call declined", tc.typed, err)
		}
	}
}

// The run's end (its deadline, Ctrl-C) ends the wait at once and lets go
// of the terminal: nothing reads it after the answer.
func TestRunEndStopsTheQuestion(t *testing.T) {
	tty, _, screen := terminal(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(tty)(ctx, request()) }()
	readUntil(t, screen, "[y/N] ")
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, runner.ErrNotConfirmed) || !errors.Is(err, context.Canceled) {
			t.Errorf("after the run ended: %v, want not confirmed, cancelled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the question outlived its run")
	}
}

// Calls made at once (parallel) ask one after the other, each answer
// going to its own question.
func TestOneQuestionAtATime(t *testing.T) {
	tty, ptmx, screen := terminal(t)
	confirm := New(tty)
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- confirm(context.Background(), request()) }()
	}
	readUntil(t, screen, "[y/N] ")
	select {
	case err := <-done:
		t.Fatalf("a question ended unanswered: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	ptmx.Write([]byte("y\n"))
	readUntil(t, screen, "[y/N] ")
	if err := <-done; err != nil {
		t.Errorf("first answer y: %v", err)
	}
	ptmx.Write([]byte("n\n"))
	if err := <-done; !errors.Is(err, runner.ErrNotConfirmed) {
		t.Errorf("second answer n: %v, want declined", err)
	}
}

// Without a terminal the call is refused, saying why.
func TestNoTerminal(t *testing.T) {
	err := New(func() (*os.File, error) { return nil, os.ErrNotExist })(context.Background(), request())
	if !errors.Is(err, runner.ErrCannotAsk) || !strings.Contains(err.Error(), "security.confirm_destructive: false") {
		t.Errorf("without a terminal: %v", err)
	}
}

// What the program put in a question cannot drive the terminal: escape
// sequences (clear the screen, move the cursor, a new window title) and
// characters that reorder or hide text are shown as escapes.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain ünïcödé 日本":        "plain ünïcödé 日本",
		"\x1b[2J\x1b[Hallow":      `\u001b[2J\u001b[Hallow`,
		"a\rb\bc\x07":             `a\u000db\u0008c\u0007`,
		"\u009b31m":               `\u009b31m`,
		"bad \xff byte":           `bad \ufffd byte`,
		"txt.\u202eexe":           `txt.\u202eexe`,
		"zero\u200bwidth\u2028ls": `zero\u200bwidth\u2028ls`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
