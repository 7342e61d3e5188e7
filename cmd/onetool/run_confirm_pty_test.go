package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// confirmDir is a working directory with a configuration that asks before
// destructive calls, and a file to delete.
func confirmDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeFile(filepath.Join(dir, "onetool.yaml"), "security:\n  confirm_destructive: true\n"); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "keep.txt"), "precious\n"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// At a terminal, a destructive call under security.confirm_destructive
// asks y/N, naming the tool and its arguments: y runs it; n, an empty
// line (the default) refuse it with the message an MCP client gets for a
// declined call, and the program goes on. Without a terminal it is
// refused unasked (cli_run_confirm_no_tty.txtar).
func TestRunConfirmAtTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := onetoolBinary(t)
	const question = `onetool wants to run file.delete\(path="keep.txt", recursive=false\), which is marked destructive: it may overwrite or delete. Allow it\? \[y/N\] `
	for _, tc := range []struct {
		typed   string
		deleted bool
	}{{"y\r", true}, {"n\r", false}, {"\r", false}} {
		dir := confirmDir(t)
		cmd := exec.Command(bin, "run", "--config", "onetool.yaml", "-e", "r = file.delete(path=\"keep.txt\")\nprint(\"went on\")\nr")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "ONETOOL_CONFIG=")
		s := startPTY(t, cmd)
		s.expect(question, 10*time.Second)
		s.send(tc.typed)
		err := cmd.Wait()
		<-s.done
		_, statErr := os.Stat(filepath.Join(dir, "keep.txt"))
		if deleted := os.IsNotExist(statErr); deleted != tc.deleted {
			t.Errorf("answer %q: deleted %v, want %v", tc.typed, deleted, tc.deleted)
		}
		screen := s.screen()
		if tc.deleted {
			if err != nil || !strings.Contains(screen, "went on") || !strings.Contains(screen, "deleted keep.txt") {
				t.Errorf("answer %q: exit %v, terminal:\n%s", tc.typed, err, screen)
			}
			continue
		}
		if err == nil || !strings.Contains(screen, "Error: line 1: file.delete failed: not confirmed: the user declined file.delete; do not retry it unless the user asks") {
			t.Errorf("answer %q: exit %v, terminal:\n%s", tc.typed, err, screen)
		}
	}
}

// The question goes to the terminal, and the answer comes from it, when
// the program itself came on standard input and its output is
// redirected: `onetool run - < prog.py > out.txt` at a terminal asks.
func TestRunConfirmProgramOnStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no pseudo-terminals on Windows")
	}
	bin := onetoolBinary(t)
	dir := confirmDir(t)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var out bytes.Buffer
	cmd := exec.Command(bin, "run", "--config", "onetool.yaml", "-")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "ONETOOL_CONFIG=")
	cmd.Stdin = strings.NewReader(`file.delete(path="keep.txt")`)
	cmd.Stdout = &out
	cmd.Stderr = tty
	// The terminal is the child's controlling terminal, as a shell's is.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	s := readPTY(t, ptmx, cmd)
	s.expect(`file\.delete\(path="keep.txt", recursive=false\), which is marked destructive.*\[y/N\] `, 10*time.Second)
	s.send("y\r")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit %v; stdout %q", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "deleted keep.txt") {
		t.Errorf("stdout %q, want the deletion (and no question)", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); !os.IsNotExist(err) {
		t.Errorf("keep.txt still there after y: %v", err)
	}
}

// The REPL asks too, and goes on after the answer: the line editor has
// let go of the terminal while an input runs.
func TestReplConfirmAtTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := onetoolBinary(t)
	dir := confirmDir(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "repl", "--config", "onetool.yaml")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm-256color", "ONETOOL_CONFIG=", "INPUTRC="+filepath.Join(home, "inputrc"))
	s := startPTY(t, cmd)
	const wait = 5 * time.Second
	s.expect(`>>> `, 10*time.Second)
	s.send(`file.delete(path="keep.txt")` + "\r")
	s.expect(`file\.delete\(path="keep.txt", recursive=false\), which is marked destructive.*\[y/N\] `, wait)
	s.send("\r")
	s.expect(`not confirmed: the user declined file\.delete`, wait)
	s.expect(`>>> `, wait)
	s.send(`file.delete(path="keep.txt")` + "\r")
	s.expect(`\[y/N\] `, wait)
	s.send("y\r")
	s.expect(`deleted keep\.txt`, wait)
	s.expect(`>>> `, wait)
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); !os.IsNotExist(err) {
		t.Errorf("keep.txt still there after y: %v", err)
	}
	s.send("\x04")
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
