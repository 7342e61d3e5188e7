package isolate

import (
	"strings"
	"sync"
)

// tail keeps what a worker wrote on stderr, for the reason it died: the
// first bytes, where a Go crash says why ("fatal error: …", "panic: …"),
// and the last ones. A worker writes nothing there until it dies.
type tail struct {
	mu   sync.Mutex
	max  int
	head []byte
	b    []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := min(len(p), 2*t.max-len(t.head)); n > 0 {
		t.head = append(t.head, p[:n]...)
	}
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// outOfMemory reports whether the runtime said it ran out of memory.
func (t *tail) outOfMemory() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := string(t.head)
	// A thread stack is a private mapping too: at the limit, creating a
	// thread fails before the heap does.
	return strings.Contains(h, "out of memory") || strings.Contains(h, "cannot allocate memory") ||
		strings.Contains(h, "pthread_create failed")
}

// lastLine is the line that explains a Go crash, or else the last line
// written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range strings.Split(string(t.head), "\n") {
		if strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "runtime: ") {
			return strings.TrimSpace(l)
		}
	}
	// A signal the runtime did not expect ("SIGSEGV: segmentation
	// violation") is followed by a register dump: say the signal.
	for _, l := range strings.Split(string(t.head), "\n") {
		if strings.HasPrefix(l, "SIG") && strings.Contains(l, ": ") {
			return strings.TrimSpace(l)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
