package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// screenSession drives a program on a pseudo-terminal and renders what
// it writes with a terminal emulator, so that a test reads the screen
// (and the lines scrolled off it) as a person would, not the byte stream:
// text a redraw overwrote is gone from it.
type screenSession struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	mu   sync.Mutex
	term *vt.Emulator
	got  int // bytes the program wrote
	done chan struct{}
}

func startScreen(t *testing.T, cmd *exec.Cmd, rows, cols int) *screenSession {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no pseudo-terminals on Windows")
	}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
	if err != nil {
		t.Skipf("no pseudo-terminal on this platform: %v", err)
	}
	s := &screenSession{t: t, cmd: cmd, ptmx: ptmx, term: vt.NewEmulator(cols, rows), done: make(chan struct{})}
	go func() { // the terminal's answers (cursor position queries) go back to the program
		_, _ = io.Copy(ptmx, s.term)
	}()
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				s.mu.Lock()
				_, _ = s.term.Write(buf[:n])
				s.got += n
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		ptmx.Close()
		<-s.done
		s.term.Close()
	})
	return s
}

// lines is the terminal's text: the lines scrolled off the top, then the
// screen, each without trailing blanks, without the blank rows at the
// bottom of the screen.
func (s *screenSession) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	if sb := s.term.Scrollback(); sb != nil {
		for _, l := range sb.Lines() {
			out = append(out, strings.TrimRight(l.String(), " "))
		}
	}
	for y := range s.term.Height() {
		var b strings.Builder
		for x := range s.term.Width() {
			if c := s.term.CellAt(x, y); c != nil && c.Content != "" {
				b.WriteString(c.Content)
			} else if c != nil && c.Width != 0 || c == nil {
				b.WriteByte(' ')
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// screen is lines joined, for messages.
func (s *screenSession) screen() string { return strings.Join(s.lines(), "\n") }

// send types text.
func (s *screenSession) send(text string) {
	s.t.Helper()
	if _, err := s.ptmx.Write([]byte(text)); err != nil {
		s.t.Fatalf("writing to the terminal: %v", err)
	}
}

// waitFor waits until cond holds for the terminal's lines.
func (s *screenSession) waitFor(what string, within time.Duration, cond func(lines []string) bool) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if cond(s.lines()) {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no %s within %v; the terminal shows:\n%s", what, within, s.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitPrompt waits until the last line is an empty prompt (">>> ").
func (s *screenSession) waitPrompt(within time.Duration) {
	s.t.Helper()
	s.waitFor("prompt on the last line", within, func(lines []string) bool {
		return len(lines) > 0 && lines[len(lines)-1] == ">>>"
	})
}

// resize changes the terminal's size, as a window manager does, and
// waits for the program to redraw: it gets SIGWINCH.
func (s *screenSession) resize(rows, cols int) {
	s.t.Helper()
	s.mu.Lock()
	s.term.Resize(cols, rows)
	before := s.got
	s.mu.Unlock()
	if err := pty.Setsize(s.ptmx, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		redrawn := s.got > before
		s.mu.Unlock()
		if redrawn {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no redraw after a resize to %dx%d; the terminal shows:\n%s", cols, rows, s.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// replOnScreen starts `onetool repl` on a terminal of rows×cols.
func replOnScreen(t *testing.T, rows, cols int) *screenSession {
	t.Helper()
	s := startScreen(t, replCommand(t), rows, cols)
	s.waitPrompt(15 * time.Second) // the first start may be slow
	return s
}

// pipedOutputs runs each input through `onetool repl` on a pipe, one
// process, and returns what each printed: the oracle for the terminal.
func pipedOutputs(t *testing.T, inputs []string) [][]string {
	t.Helper()
	var src strings.Builder
	for i, in := range inputs {
		// A marker after each input splits the outputs.
		fmt.Fprintf(&src, "%s\n\nprint('--%d--')\n", in, i)
	}
	cmd := exec.Command(onetoolBinary(t), "repl")
	home := t.TempDir()
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "ONETOOL_CONFIG=")
	cmd.Stdin = strings.NewReader(src.String())
	b, _ := cmd.Output() // exit status 1: some inputs fail
	out := string(b)
	outs := make([][]string, len(inputs))
	rest := out
	for i := range inputs {
		before, after, ok := strings.Cut(rest, fmt.Sprintf("--%d--\n", i))
		if !ok {
			t.Fatalf("piped output lacks marker %d: %q", i, out)
		}
		if before != "" {
			outs[i] = strings.Split(strings.TrimSuffix(before, "\n"), "\n")
		}
		rest = after
	}
	return outs
}

// Once the prompt reaches the bottom row, every redraw of the line editor
// used to move the prompt up over the last line of output: after a
// screenful every result vanished. 60 inputs on a 24-row terminal (values,
// printed text, errors, multi-line blocks): the screen and its scrollback
// read back as the transcript, every result in order.
func TestReplScreenKeepsOutput(t *testing.T) {
	var inputs []string
	for i := range 60 {
		switch i % 10 {
		case 3:
			inputs = append(inputs, fmt.Sprintf("nope_%d + 1", i)) // an error
		case 5:
			inputs = append(inputs, fmt.Sprintf("print('line %d\\nmore')", i)) // printed text, two lines
		case 7:
			inputs = append(inputs, fmt.Sprintf("def f%d(a):\n    return a * %d", i, i))
		case 8:
			inputs = append(inputs, fmt.Sprintf("f%d(2)", i-1))
		default:
			inputs = append(inputs, fmt.Sprintf("%d * 1000 + %d", i, i))
		}
	}
	s := replOnScreen(t, 24, 80)
	outs := pipedOutputs(t, inputs)
	want := s.lines() // the banner and the first prompt
	want = want[:len(want)-1]
	for i, in := range inputs {
		lines := strings.Split(in, "\n")
		for j, l := range lines {
			if j == 0 {
				want = append(want, ">>> "+l)
			} else {
				want = append(want, "... "+l)
			}
			s.send(l + "\r")
		}
		if strings.HasPrefix(in, "def ") {
			want = append(want, "...")
			s.send("\r")
		}
		want = append(want, outs[i]...)
		// The last output line, then the next prompt: this input ran.
		last := wrapLines(want[len(want)-1:], 80)
		s.waitFor(fmt.Sprintf("prompt after input %d", i), 10*time.Second, func(got []string) bool {
			n := len(got)
			return n > len(last) && got[n-1] == ">>>" && slices.Equal(got[n-1-len(last):n-1], last)
		})
	}
	want = wrapLines(append(want, ">>>"), 80)
	got := s.lines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the terminal shows:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wrapLines is lines as a terminal of cols columns shows them: a longer
// line takes several rows.
func wrapLines(lines []string, cols int) []string {
	var out []string
	for _, l := range lines {
		r := []rune(l)
		for len(r) > cols {
			out = append(out, string(r[:cols]))
			r = r[cols:]
		}
		out = append(out, string(r))
	}
	return out
}

// outputAfter waits for the prompt after the line marker and returns the
// lines between them.
func (s *screenSession) outputAfter(marker string, within time.Duration) []string {
	s.t.Helper()
	var out []string
	s.waitFor("output after "+marker, within, func(lines []string) bool {
		n := len(lines)
		if n == 0 || lines[n-1] != ">>>" {
			return false
		}
		for i := n - 2; i >= 0; i-- {
			if lines[i] == marker {
				out = lines[i+1 : n-1]
				return true
			}
		}
		return false
	})
	return out
}

// A paste is one input, blank lines inside its function included: with
// bracketed paste (the REPL turns it on; the terminal brackets the paste)
// Enter then runs it; without, the lines are typing, and a blank line
// ends a block as in CPython's REPL. Resizing the terminal
// mid-line keeps the line. exit() leaves with status 0.
func TestReplScreenPasteResizeExit(t *testing.T) {
	s := replOnScreen(t, 24, 80)
	const wait = 10 * time.Second

	s.term.Paste("def f():\r    x = 1\r\r    return x\r\rprint(f())")
	s.waitFor("the pasted block", wait, func(lines []string) bool {
		return len(lines) > 0 && lines[len(lines)-1] == "... print(f())"
	})
	s.send("\r")
	if out := s.outputAfter("... print(f())", wait); !slices.Equal(out, []string{"1"}) {
		t.Errorf("bracketed paste printed %q, want [1]; the terminal shows:\n%s", out, s.screen())
	}

	// Without brackets a burst is typing: a blank line ends the block.
	s.send("def g():\r    return 2\r\rprint(g())\r")
	if out := s.outputAfter(">>> print(g())", wait); !slices.Equal(out, []string{"2"}) {
		t.Errorf("unbracketed paste printed %q, want [2]; the terminal shows:\n%s", out, s.screen())
	}

	s.send("resized = 6 *")
	s.waitFor("the typed line", wait, func(lines []string) bool {
		return len(lines) > 0 && lines[len(lines)-1] == ">>> resized = 6 *"
	})
	s.resize(30, 100)
	s.resize(24, 60)
	s.send(" 7\r")
	s.waitPrompt(wait)
	// A line longer than the new width: the editor redraws it on two rows.
	s.send("long = 6 * 7 + 0 * 1111111111 + 0 * 2222222222 + 0 * 333333")
	s.waitFor("the long line", wait, func(lines []string) bool {
		return strings.HasSuffix(strings.Join(lines, ""), "+ 0 * 333333") // wrapped at 60 columns
	})
	s.resize(24, 40)
	s.send("3333\r")
	s.waitPrompt(wait)
	s.send("long\r")
	if out := s.outputAfter(">>> long", wait); !slices.Equal(out, []string{"42"}) {
		t.Errorf("after a resize that wraps the line, printed %q, want [42]; the terminal shows:\n%s", out, s.screen())
	}
	s.send("resized\r")
	if out := s.outputAfter(">>> resized", wait); !slices.Equal(out, []string{"42"}) {
		t.Errorf("after a resize mid-line, printed %q, want [42]; the terminal shows:\n%s", out, s.screen())
	}
	if !slices.Contains(s.lines(), ">>> resized = 6 * 7") {
		t.Errorf("the line typed across a resize is not intact; the terminal shows:\n%s", s.screen())
	}

	s.send("exit()\r")
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit(): %v; the terminal shows:\n%s", err, s.screen())
		}
	case <-time.After(wait):
		t.Fatalf("still running after exit(); the terminal shows:\n%s", s.screen())
	}
}
