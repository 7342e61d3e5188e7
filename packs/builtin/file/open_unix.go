//go:build unix

package file

import "syscall"

// readFlags open files for reading without blocking on a named pipe or a
// device that has nothing to say: the file is checked with Stat right
// after opening, and anything but a regular file is refused.
const readFlags = syscall.O_RDONLY | syscall.O_NONBLOCK
