package mcpclient

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// minimalEnv is the whole environment of a stdio server (SPEC §4.5): PATH
// and HOME from onetool's own environment, so that the command and its
// interpreters can be found, plus the entry's env, which wins. Nothing
// else of onetool's environment — API keys, tokens, the user's shell
// settings — reaches an upstream server unless the config passes it on
// purpose. The result is sorted, so a given config always gives the same
// environment.
func minimalEnv(extra map[string]string) []string {
	vars := make(map[string]string, len(extra)+2)
	for _, k := range []string{"PATH", "HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			vars[k] = v
		}
	}
	for k, v := range extra {
		vars[k] = v
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

// stderrTailSize is how much of a server's stderr is kept: enough for a
// stack trace's end or a "missing API key" line, small enough to carry in
// an error message.
const stderrTailSize = 4 << 10

// tailBuffer keeps the last stderrTailSize bytes written to it. It is the
// Stderr of a server process: a child's diagnostics end up in our error
// messages and never on onetool's stdout, which may be an MCP stream.
type tailBuffer struct {
	mu        sync.Mutex
	buf       []byte
	truncated bool
}

// Write keeps the tail of p and never fails, so a chatty child cannot
// block or break on its stderr.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.truncated = true
	}
	return len(p), nil
}

// String returns the kept text, trimmed; when older output was dropped it
// starts at a line boundary (or a whole UTF-8 character) after "…".
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if t.truncated {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
		for len(b) > 0 && !utf8.RuneStart(b[0]) {
			b = b[1:]
		}
	}
	s := strings.TrimSpace(string(b))
	if t.truncated && s != "" {
		s = "…" + s
	}
	return s
}
