//go:build unix

package toolpack

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts the command in a process group of its own and
// makes cancellation kill the whole group, not just the process: a shell
// script's children would otherwise survive it, keep stdout open, and
// keep running after the call has failed.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// A negative pid names the process group, whose id is the
		// command's pid (Setpgid with Pgid 0).
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}

// baseEnv names the variables every command gets, when they are set.
func baseEnv() []string { return []string{"PATH", "HOME", "LANG", "TMPDIR"} }
