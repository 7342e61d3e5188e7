package runner

import (
	"context"
	"strings"
	"testing"
)

// A program's standard error (sys.stderr, logging, traceback.print_exc)
// joins its printed text in the order written, which is what an MCP client
// reads; with SeparateStderr it is kept apart for a caller with a stderr of
// its own (onetool run), also when the program then fails, and secrets
// are redacted from it too.
func TestStderrJoinedOrSeparate(t *testing.T) {
	r := newRunner(t, WithConfig(secretConfig(t, "")))
	code := `import sys, logging, traceback
tok = "sk-live-" + "0123456789abcdef"
print("out1")
print("err1", tok, file=sys.stderr)
logging.warning("warned")
try:
    1 / 0
except ZeroDivisionError:
    traceback.print_exc()
sys.stderr.write("err2\n")
print("out2")`
	ctx := context.Background()

	joined := r.Exec(ctx, code)
	if joined.IsError() || joined.Stderr != "" {
		t.Fatalf("joined: error %v, stderr %q", joined.Err, joined.Stderr)
	}
	want := "out1\nerr1 [secret:API_TOKEN]\nWARNING:root:warned\nTraceback (most recent call last):\n" +
		"  File \"<string>\", line 7, in <module>\nZeroDivisionError: division by zero\nerr2\nout2"
	if joined.Text != want {
		t.Errorf("joined text:\n%s\nwant:\n%s", joined.Text, want)
	}

	apart := r.Exec(ctx, code, SeparateStderr())
	if apart.IsError() {
		t.Fatal(apart.Err)
	}
	if apart.Text != "out1\nout2" {
		t.Errorf("separate: text %q, want the printed lines only", apart.Text)
	}
	wantErr := "err1 [secret:API_TOKEN]\nWARNING:root:warned\nTraceback (most recent call last):\n" +
		"  File \"<string>\", line 7, in <module>\nZeroDivisionError: division by zero\nerr2\n"
	if apart.Stderr != wantErr {
		t.Errorf("separate: stderr %q, want %q", apart.Stderr, wantErr)
	}

	failed := r.Exec(ctx, "import sys\nprint('a')\nprint('b', file=sys.stderr)\n1 / 0", SeparateStderr())
	if !failed.IsError() || failed.Stderr != "b\n" || !strings.HasPrefix(failed.Text, "a\nError: line 4:") {
		t.Errorf("failed run: stderr %q, text %q", failed.Stderr, failed.Text)
	}
}

// The printed-output limit bounds both texts together.
func TestStderrCountsAgainstOutputLimit(t *testing.T) {
	l := DefaultLimits()
	l.MaxOutput = 100
	r := newRunner(t, WithLimits(l))
	res := r.Exec(context.Background(), "import sys\nfor i in range(100):\n    sys.stderr.write('x' * 10)", SeparateStderr())
	if !res.IsError() || !strings.Contains(res.Text, "output limit") {
		t.Errorf("want the output limit, got %q", res.Text)
	}
	if len(res.Stderr) > 100 {
		t.Errorf("stderr grew to %d bytes past the limit of 100", len(res.Stderr))
	}
}
