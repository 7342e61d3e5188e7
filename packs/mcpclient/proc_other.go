//go:build !unix

package mcpclient

import (
	"os/exec"
	"time"
)

// ownProcessGroup does nothing where process groups do not exist: the
// child alone is ended by the transport.
func ownProcessGroup(*exec.Cmd) {}

// endProcessGroup does nothing where process groups do not exist.
func endProcessGroup(int, time.Duration) {}

// killProcessGroup does nothing where process groups do not exist: the
// transport's own SIGKILL of the child is all there is.
func killProcessGroup(int) {}
