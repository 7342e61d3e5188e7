//go:build !unix

package toolpack

import "os/exec"

// killGroupOnCancel keeps exec's default, which kills the process only:
// there is no process group to kill on this system.
func killGroupOnCancel(cmd *exec.Cmd) {}

// baseEnv names the variables every command gets, when they are set.
// Windows programs need the system's own variables to start at all.
func baseEnv() []string {
	return []string{"PATH", "HOME", "LANG", "TMPDIR", "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE"}
}
