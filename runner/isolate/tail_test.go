package isolate

import "testing"

// The reason a crashed worker gives is the line that says why, not the
// last line of the dump that follows it.
func TestTailReason(t *testing.T) {
	for _, c := range []struct{ stderr, want string }{
		{"panic: something broke\n\ngoroutine 1 [running]:\nmain.main()\n", "panic: something broke"},
		{"runtime: out of memory: cannot allocate 268435456-byte block\nfatal error: out of memory\n", "runtime: out of memory: cannot allocate 268435456-byte block"},
		{"SIGSEGV: segmentation violation\nPC=0x46a3c1 m=3 sigcode=1\n\nrax    0x0\ngs     0x0\n", "SIGSEGV: segmentation violation"},
		{"something else\nthe last words\n", "the last words"},
	} {
		tl := &tail{max: 4096}
		tl.Write([]byte(c.stderr))
		if got := tl.lastLine(); got != c.want {
			t.Errorf("lastLine(%q) = %q, want %q", c.stderr, got, c.want)
		}
	}
}
