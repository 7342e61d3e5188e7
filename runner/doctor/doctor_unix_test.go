//go:build unix

package doctor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// No server outlives the check: the processes started to ask them are
// gone when Run returns, the one that never answers included.
func TestNoServerOutlivesTheCheck(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "0755:#!/bin/sh\necho $$ > " + pidFile + "\nwhile read -r line; do :; done\n"
	rep, _ := setup{yaml: "servers:\n  mute: {command: ./mute.sh, timeout: 300ms}\n", files: map[string]string{"mute.sh": script}}.run(t)
	if len(rep.Problems) != 1 {
		t.Fatalf("want the mute server's problem, got %q", texts(rep.Problems, ""))
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the server never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("server process %d is still running after Run returned", pid)
	}
}
