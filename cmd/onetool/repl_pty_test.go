package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ansi matches the escape sequences the line editor writes (CSI and OSC
// sequences, and two-byte escapes).
var ansi = regexp.MustCompile(`\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// ptySession drives a program on a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	ptmx *os.File
	mu   sync.Mutex
	raw  bytes.Buffer // everything the program wrote
	mark int          // expectations look at the output after this offset
	done chan struct{}
}

func startPTY(t *testing.T, cmd *exec.Cmd) *ptySession {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no pseudo-terminals on Windows")
	}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		t.Skipf("no pseudo-terminal on this platform: %v", err)
	}
	s := readPTY(t, ptmx, cmd)
	t.Cleanup(func() { ptmx.Close() })
	return s
}

// readPTY keeps what the program cmd writes to the terminal whose master
// side is ptmx, answering cursor-position queries should its line editor
// ask, and kills cmd at the end of the test if it is still running.
func readPTY(t *testing.T, ptmx *os.File, cmd *exec.Cmd) *ptySession {
	s := &ptySession{t: t, ptmx: ptmx, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				s.mu.Lock()
				s.raw.Write(buf[:n])
				s.mu.Unlock()
				if bytes.Contains(buf[:n], []byte("\x1b[6n")) {
					ptmx.Write([]byte("\x1b[1;1R"))
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return s
}

// replCommand is `onetool repl` in a home of its own, with no
// configuration and no inputrc of the user's.
func replCommand(t *testing.T) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := onetoolBinary(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "repl")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm-256color", "ONETOOL_CONFIG=", "INPUTRC="+filepath.Join(home, "inputrc"))
	return cmd
}

// screen is the output after the mark, without escape sequences.
func (s *ptySession) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	clean, _ := stripANSI(s.raw.Bytes()[s.mark:])
	return string(clean)
}

// send types text.
func (s *ptySession) send(text string) {
	s.t.Helper()
	if _, err := s.ptmx.Write([]byte(text)); err != nil {
		s.t.Fatalf("writing to the terminal: %v", err)
	}
}

// expect waits until the output after the mark matches re, then moves the
// mark past the match.
func (s *ptySession) expect(re string, within time.Duration) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(within)
	for {
		s.mu.Lock()
		clean, ends := stripANSI(s.raw.Bytes()[s.mark:])
		if loc := rx.FindIndex(clean); loc != nil {
			if loc[1] > 0 {
				s.mark += ends[loc[1]-1]
			}
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q within %v; the terminal shows:\n%s", re, within, clean)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stripANSI removes escape sequences from raw; ends[i] is the offset in
// raw just past the i-th byte of clean.
func stripANSI(raw []byte) (clean []byte, ends []int) {
	prev := 0
	for _, loc := range append(ansi.FindAllIndex(raw, -1), []int{len(raw), len(raw)}) {
		for i := prev; i < loc[0]; i++ {
			clean = append(clean, raw[i])
			ends = append(ends, i+1)
		}
		prev = loc[1]
	}
	return clean, ends
}

func TestReplTerminal(t *testing.T) {
	cmd := replCommand(t)
	home := cmd.Dir
	s := startPTY(t, cmd)
	const wait = 5 * time.Second // generous for loaded CI machines; a pass takes well under a second

	s.expect(`>>> `, 10*time.Second) // the first start may be slow
	s.send("x = 40\r")
	s.expect(`>>> `, wait)
	s.send("x + 2\r")
	s.expect(`(?m)^42\r?$`, wait)
	s.expect(`>>> `, wait)

	// Completion of a pack function, then of a parameter name.
	s.send("demo.fo\t")
	s.expect(`demo\.foo\(`, wait)
	s.send("te\t")
	s.expect(`text=`, wait)
	s.send(`"test")` + "\r")
	s.expect(`(?m)^orange\r?$`, wait)
	s.expect(`>>> `, wait)

	// Ctrl-C cancels a running input; the REPL goes on.
	s.send("demo.sleep(ms=60000)\r")
	s.expect(`sleep\(ms=60000\)\r*\n`, wait) // the line editor accepted it
	time.Sleep(200 * time.Millisecond)       // and left the terminal to the run
	start := time.Now()
	s.send("\x03")
	s.expect(`Error: .*cancel`, wait)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	s.expect(`>>> `, wait)

	// A multi-line block, ended by a blank line.
	s.send("def f(a):\r")
	s.expect(`\.\.\. `, wait)
	s.send("    return a * 3\r")
	s.expect(`\.\.\. `, wait)
	s.send("\r")
	s.expect(`>>> `, wait)
	s.send("f(14)\r")
	s.expect(`(?m)^42\r?$`, wait)
	s.expect(`>>> `, wait)
	s.send(":reset\r")
	s.expect(`Session reset`, wait)
	s.expect(`>>> `, wait)

	// Up-arrow recalls the whole block as one entry: :reset, f(14), the def.
	// One key at a time, waiting for each recall, as a person types.
	s.send("\x1b[A")
	s.expect(`:reset`, wait)
	s.send("\x1b[A")
	s.expect(`f\(14\)`, wait)
	s.send("\x1b[A")
	s.expect(`return a \* 3`, wait)
	s.send("\r") // Enter adds a line under a block; a blank line runs it
	s.expect(`\.\.\. `, wait)
	s.send("\r")
	s.expect(`>>> `, wait)
	s.send("f(5)\r")
	s.expect(`(?m)^15\r?$`, wait)
	s.expect(`>>> `, wait)

	// Ctrl-C at the prompt clears the line.
	// (The line editor reads a Ctrl-C followed by typeahead in the same
	// read as an abort of nothing: wait for the echo, as a person would.)
	s.send("this is not code")
	s.expect(`this is not code`, wait)
	s.send("\x03")
	s.expect(`\n>>> `, wait)
	s.send("x\r")
	s.expect(`'x' is not defined`, wait) // forgotten by :reset
	s.expect(`>>> `, wait)

	// Ctrl-D on an empty line exits 0.
	s.send("\x04")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("exit status %d; the terminal shows:\n%s", ee.ExitCode(), s.screen())
			}
			t.Fatal(err)
		}
	case <-time.After(wait):
		t.Fatalf("still running after Ctrl-D; the terminal shows:\n%s", s.screen())
	}

	// The history file holds the block as one entry, private to the user.
	path := filepath.Join(home, ".onetool", "history")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, want 0600", info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var entry struct{ Block string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("history line %q: %v", line, err)
		}
		blocks = append(blocks, entry.Block)
	}
	want := "def f(a):\n    return a * 3"
	found := false
	for _, b := range blocks {
		found = found || b == want
	}
	if !found {
		t.Errorf("history %q has no entry %q", blocks, want)
	}
}

// `onetool serve` typed at a terminal says, in one line, that MCP clients
// start it and what a person uses instead, then keeps waiting for a
// client: a JSON-RPC request typed (or pasted) is still answered.
func TestServeOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := onetoolBinary(t)
	home := t.TempDir()
	cmd := exec.Command(bin, "serve")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "ONETOOL_CONFIG=")
	s := startPTY(t, cmd)
	s.expect("MCP clients start it\\. To run programs yourself, use `onetool repl` or `onetool run -e CODE`", 10*time.Second)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r")
	s.expect(`"id":1,"result":\{\}`, 5*time.Second)
}
