package roots

import (
	"os"
	"path/filepath"
	"strconv"
)

// openedPath returns the path the kernel has for the open file f: where
// it really is, whatever links the path that opened it went through.
// False when it cannot tell (no /proc, a deleted file).
func openedPath(f *os.File) (string, bool) {
	c, err := f.SyscallConn()
	if err != nil {
		return "", false
	}
	var p string
	var rerr error
	if err := c.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil || rerr != nil || !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}
