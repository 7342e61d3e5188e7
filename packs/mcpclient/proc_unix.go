//go:build unix

package mcpclient

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ownProcessGroup makes the child the leader of a new process group, so
// that the helpers it starts (npx starts node, a shell script starts its
// program) can be ended together with it: signalling the child alone would
// leave them running, orphaned.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// endProcessGroup ends what is left of the group led by pid, once the
// leader itself is gone: SIGTERM, up to grace for the members to exit,
// then SIGKILL. A group with no members left costs one failed kill(2).
func endProcessGroup(pid int, grace time.Duration) {
	if pid <= 0 {
		return
	}
	if err := syscall.Kill(-pid, syscall.SIGTERM); errors.Is(err, syscall.ESRCH) {
		return
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		if err := syscall.Kill(-pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// killProcessGroup sends SIGKILL to the process group led by pid (the
// leader included): the backstop when an orderly close takes too long.
func killProcessGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
