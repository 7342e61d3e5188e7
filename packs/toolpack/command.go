package toolpack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Limits of the command protocol.
const (
	maxStdout     = 16 << 20 // bytes of JSON a command may print
	stderrTail    = 2 << 10  // bytes of stderr quoted when a command fails
	badJSONHead   = 200      // bytes of bad stdout quoted in the error
	pipeWaitDelay = 500 * time.Millisecond

	// defaultCommandTimeout bounds a command whose toolpack gives no
	// timeout: a command that hangs must not hold a run until its wall
	// clock ends.
	defaultCommandTimeout = 30 * time.Second
)

// command runs a program once per call: the arguments as one JSON object
// on stdin, the result as one JSON value on stdout. There is no shell, so
// nothing in the arguments is ever interpreted as shell syntax.
type command struct {
	argv0     string   // as written in the toolpack, for messages
	path      string   // the program, resolved at load time
	args      []string // argv[1:]
	dir       string   // the toolpack's directory, the working directory
	env       []string // variables passed through besides the base ones
	lookupEnv func(string) (string, bool)
	timeout   time.Duration
}

// files are what the command runs: its program, and every argument that
// names an existing file (the script of `python3 fetch.py`), relative to
// the toolpack's directory, where it runs. Directories are left out: an
// argument may be the project the command works on.
func (c *command) files() []string {
	out := []string{c.path}
	for _, a := range c.args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		p := filepath.FromSlash(a)
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.dir, p)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// call is the command's packs.Handler.
//
// The child's lifetime is bounded three ways: by the command's timeout,
// by ctx (the run's cancellation and the tool's timeout), and by the size
// of its output. In every case the whole process group is killed, so that
// a shell script's own children (a `sleep`, a pipeline) die with it and
// cannot keep the call waiting on an open pipe.
func (c *command) call(ctx context.Context, args map[string]any) (any, error) {
	if args == nil {
		args = map[string]any{}
	}
	input, err := ordered.Encode(args)
	if err != nil {
		return nil, fmt.Errorf("cannot encode the arguments as JSON: %w", err)
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// kill ends the process early: ctx's end reaches it too, and a
	// runaway stdout calls it directly.
	runCtx, kill := context.WithCancel(ctx)
	defer kill()

	cmd := exec.CommandContext(runCtx, c.path, c.args...)
	cmd.Dir = c.dir
	cmd.Env = c.environ()
	cmd.Stdin = bytes.NewReader(input) // exec closes the child's stdin once it is written
	stdout := &limitedBuffer{limit: maxStdout, exceeded: kill}
	stderr := &tailBuffer{limit: stderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A grandchild that outlives the command while holding stdout open
	// (a daemon started without redirecting it) must not hang the call.
	cmd.WaitDelay = pipeWaitDelay
	killGroupOnCancel(cmd)

	if err := cmd.Start(); err != nil {
		return nil, &wrapped{fmt.Sprintf("cannot start %s: %v", c.argv0, err), err}
	}
	err = cmd.Wait()
	switch {
	case stdout.over:
		return nil, fmt.Errorf("command printed more than %d MiB on stdout; the result must be one JSON value of at most that size", maxStdout>>20)
	case err != nil && ctx.Err() != nil:
		return nil, c.stopped(parent, ctx)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited successfully; something it left running held
		// stdout open. What was printed is the result.
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, exitError(ee, stderr.String())
		}
		return nil, &wrapped{"command failed: " + err.Error(), err}
	}
	return decodeResult(stdout.buf.Bytes())
}

// stopped is the error of a command killed because ctx ended: by its own
// timeout, or by the caller (whose cause, such as the run's wall clock, is
// kept). Both wrap ctx.Err(), so errors.Is(err, context.DeadlineExceeded)
// and errors.Is(err, context.Canceled) work.
func (c *command) stopped(parent, ctx context.Context) error {
	if parent.Err() == nil {
		return &wrapped{fmt.Sprintf("command timed out after %s and was killed", c.timeout), ctx.Err()}
	}
	cause := context.Cause(parent)
	if cause == nil || cause == parent.Err() {
		return &wrapped{"command was killed: " + parent.Err().Error(), parent.Err()}
	}
	return &wrapped{"command was killed: " + cause.Error(), errors.Join(parent.Err(), cause)}
}

// exitError describes a command that failed, with the end of its stderr,
// where programs explain themselves.
func exitError(ee *exec.ExitError, stderr string) error {
	var msg string
	if code := ee.ExitCode(); code >= 0 {
		msg = fmt.Sprintf("command exited with status %d", code)
	} else {
		msg = fmt.Sprintf("command was killed (%s)", ee.String())
	}
	if stderr != "" {
		msg += ": " + stderr
	}
	return &wrapped{msg, ee}
}

// decodeResult reads the command's stdout: exactly one JSON value,
// surrounding whitespace allowed.
func decodeResult(out []byte) (any, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, errors.New("command printed nothing on stdout; want one JSON value")
	}
	v, err := ordered.Decode(out)
	if err != nil {
		head, more := out, ""
		if len(head) > badJSONHead {
			head, more = head[:badJSONHead], "…"
		}
		return nil, &wrapped{fmt.Sprintf("command printed invalid JSON on stdout: %q%s (%v)",
			strings.ToValidUTF8(string(head), "\uFFFD"), more, err), err}
	}
	return v, nil
}

// environ is the child's whole environment: the base variables and the
// toolpack's allow-list, with values from lookupEnv. Nothing else leaks
// through, so a token in onetool's environment reaches only the commands
// that ask for it by name.
func (c *command) environ() []string {
	env := []string{} // not nil: a nil Env would give the child our whole environment
	seen := map[string]bool{}
	for _, name := range append(baseEnv(), c.env...) {
		if seen[name] {
			continue
		}
		seen[name] = true
		if v, ok := c.lookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// limitedBuffer keeps up to limit bytes. Past that it discards everything
// and calls exceeded once, which kills the process: reading a runaway
// output to its end could take forever.
type limitedBuffer struct {
	buf      bytes.Buffer
	limit    int
	over     bool
	exceeded func()
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.over {
		return len(p), nil
	}
	if b.buf.Len()+len(p) > b.limit {
		b.over = true
		b.buf = bytes.Buffer{}
		b.exceeded()
		return len(p), nil
	}
	return b.buf.Write(p)
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	buf   []byte
	limit int
	cut   bool // earlier bytes were dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if extra := len(t.buf) - t.limit; extra > 0 {
		t.buf = append(t.buf[:0], t.buf[extra:]...)
		t.cut = true
	}
	return len(p), nil
}

// String is the kept text, trimmed, starting at a whole character.
func (t *tailBuffer) String() string {
	b := t.buf
	if t.cut {
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// wrapped is an error whose text is complete on its own but which still
// matches its cause with errors.Is and errors.As.
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }
