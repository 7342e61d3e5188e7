package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner"
)

const (
	primaryPrompt      = ">>> "
	continuationPrompt = "... "
)

func newReplCmd(g *globalFlags) *cobra.Command {
	var historyFile string
	var rootDirs rootFlags
	cmd := &cobra.Command{
		Use:   "repl",
		Short: "Interactive Python session on the packs",
		Long: `Read Python input by input and print what the run tool would return,
in one session: names an input defines stay for the next ones.

On a terminal: line editing, a history file (multi-line blocks are kept as
one entry), tab completion of globals, pack functions after "pack." and
parameter names inside a call. A line ending in ':' opens a block that a
blank line ends. A paste is one input, blank lines inside functions
included. Ctrl-C cancels the running input or clears the line; Ctrl-D on
an empty line, exit() or quit() exits. Commands: :help, :packs, :reset,
:quit.

When standard input is not a terminal, lines are read and grouped into
inputs the same way, and only the outputs are printed: no prompts. A blank
line followed by an indented line stays inside its block.
Exit status: the code of exit(code) when an input called it; else 0, or 1
when standard input was not a terminal and some input failed (every input
still runs); 2 on usage errors.`,
		Example: `  onetool repl
  printf 'x = 2\nx * 21\n' | onetool repl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := historyFile
			if !cmd.Flags().Changed("history") {
				path = defaultHistoryPath()
			}
			extra, err := rootDirs.options()
			if err != nil {
				return err
			}
			if path != "" {
				// What was typed may hold secrets: programs never read it (SPEC §8.2).
				extra = append(extra, runner.WithProtected(roots.Own{Path: path, What: "REPL history file"}))
			}
			r, err := g.newRunner(nil, extra...) // keep output.max_inline: ot.result pages long results later
			if err != nil {
				return err
			}
			defer r.Close()
			defer softMemoryLimit(r, 1)()
			rp := &repl{r: r, s: r.NewSession(), out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr()}
			if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				if err := rp.interactive(cmd.Context(), path, cmd.ErrOrStderr()); err != nil {
					return err
				}
				return rp.status(false)
			}
			if err := rp.piped(cmd.Context(), cmd.InOrStdin()); err != nil {
				return &exitError{code: exitRun, msg: fmt.Sprintf("reading standard input: %v", err)}
			}
			return rp.status(true)
		},
	}
	cmd.Flags().StringVar(&historyFile, "history", "", "history `FILE` (default ~/.onetool/history; \"\" keeps no history file)")
	rootDirs.register(cmd)
	return cmd
}

func defaultHistoryPath() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".onetool", "history")
}

// repl is one session of `onetool repl`.
type repl struct {
	r      *runner.Runner
	s      *runner.Session
	out    io.Writer
	errOut io.Writer
	failed bool // some input failed
	// exit is set when the user left with exit(), quit(), exit, sys.exit()
	// or raise SystemExit: the status to exit with.
	exit *int
}

// status is the command's result once the session ends: the status
// exit(code) asked for, else 1 when an input failed and failures count
// (input from a pipe), else success.
func (rp *repl) status(failuresCount bool) error {
	switch {
	case rp.exit != nil && *rp.exit != 0:
		return &exitError{code: *rp.exit}
	case rp.exit != nil:
		return nil
	case failuresCount && rp.failed:
		return &exitError{code: exitRun}
	}
	return nil
}

// run runs a text the terminal accepted: one input, or several when a
// paste without bracketed paste ended a block with a blank line and went
// on at the top level (see splitInputs). It reports whether to quit.
func (rp *repl) run(ctx context.Context, text string, interrupt <-chan os.Signal) (quit bool) {
	for _, input := range splitInputs(text) {
		if rp.handle(ctx, input, interrupt) {
			return true
		}
	}
	return false
}

// handle runs one complete input: a :command or Python. interrupt, when
// not nil, delivers Ctrl-C while the input runs. It reports whether the
// user asked to quit.
func (rp *repl) handle(ctx context.Context, input string, interrupt <-chan os.Signal) (quit bool) {
	text := strings.TrimSpace(input)
	if text == "" {
		return false
	}
	if strings.HasPrefix(text, ":") && !strings.Contains(text, "\n") {
		return rp.command(text)
	}
	if text == "exit" || text == "quit" { // as in CPython 3.13's REPL
		return rp.leave(0)
	}
	if f, err := interp.FileOptions().Parse(interp.Filename, text, 0); err == nil && len(f.Stmts) == 0 {
		return false // only comments: nothing to run, as in Python
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	var interrupted atomic.Bool
	if interrupt != nil {
		go func() {
			select {
			case <-interrupt:
				interrupted.Store(true)
				cancel()
			case <-done:
			}
		}()
	}
	res := rp.s.Exec(ctx, input, confirmAtTerminal(rp.out)...) // a destructive call asks y/N on the terminal (run.go)
	close(done)
	if interrupted.Load() {
		fmt.Fprintln(rp.out) // past the ^C the terminal echoed
	}
	if code, msg, ok := systemExit(res.Err); ok {
		// Uncaught SystemExit: leave as CPython does, printing what was
		// printed before it, and a message code on standard error.
		if res.Printed != "" {
			fmt.Fprintln(rp.out, res.Printed)
		}
		if msg != "" {
			fmt.Fprintln(rp.errOut, msg)
		}
		return rp.leave(code)
	}
	if res.IsError() {
		rp.failed = true
	}
	if out, ok := replOutput(res); ok {
		fmt.Fprintln(rp.out, out)
	}
	if !res.IsError() && res.Exited {
		return rp.leave(0) // exit() or exit(0), from anywhere: the interpreter ends the run as if it had finished
	}
	return false
}

// leave records the exit status the user asked for and says to quit.
func (rp *repl) leave(code int) (quit bool) {
	rp.exit = &code
	return true
}

// systemExit reports whether err is an uncaught SystemExit with a code
// (exit(3), sys.exit("bye")) and the status CPython would exit with: the
// code when it is an integer, else 1 after printing it (msg).
func systemExit(err error) (code int, msg string, ok bool) {
	var exc *pyrt.Exception
	if err == nil || !errors.As(err, &exc) || exc.Class != "SystemExit" || exc.Module != "" {
		return 0, "", false
	}
	switch exc.Msg {
	case "", "None", "False":
		return 0, "", true
	case "True":
		return 1, "", true
	}
	if n, err := strconv.Atoi(exc.Msg); err == nil {
		return n & 0xff, "", true // the process status keeps the low byte, as on POSIX
	}
	return 1, exc.Msg, true
}

// replOutput is what the REPL prints for a result: the text `onetool run`
// prints, except that nothing is printed for a statement (no value) or a
// None value when nothing was printed, as in Python.
func replOutput(res *runner.ExecResult) (string, bool) {
	if res.IsError() {
		return res.Text, true
	}
	if res.Printed == "" && (!res.HasValue || (res.Value == nil && res.Text == "None")) {
		return "", false
	}
	return res.Text, true
}

const replHelp = `Type Python: the value of a final expression is printed, and the names
you define stay for the next inputs. A line ending in ':' opens a block;
a blank line ends it. Tab completes packs, pack functions (demo.fo<Tab>)
and parameters (demo.foo(te<Tab>). A paste runs as one input when you
press Enter. Ctrl-C cancels a running input or clears the line; Ctrl-D,
exit() or quit() exits.

Commands:
  :help    this help
  :packs   the packs and what they do
  :reset   forget every name you defined
  :quit    leave (also :q, :exit)

Discover tools: ot.help(), ot.help(query="demo"), ot.tools(pattern="sleep").`

// command runs a :command and reports whether it asks to quit.
func (rp *repl) command(text string) (quit bool) {
	switch name, _, _ := strings.Cut(text, " "); name {
	case ":quit", ":q", ":exit":
		return true
	case ":help", ":h", ":?":
		fmt.Fprintln(rp.out, replHelp)
	case ":packs":
		tw := tabwriter.NewWriter(rp.out, 0, 0, 2, ' ', 0)
		for _, p := range rp.r.PackSummaries() {
			fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
		}
		tw.Flush()
	case ":reset":
		rp.s.Reset()
		fmt.Fprintln(rp.out, "Session reset: every name you defined is forgotten.")
	default:
		rp.failed = true
		fmt.Fprintf(rp.out, "Error: unknown command '%s'. Commands: :help, :packs, :reset, :quit\n", name)
	}
	return false
}

// piped reads lines from in, groups them into inputs as the terminal does
// and prints only the outputs.
func (rp *repl) piped(ctx context.Context, in io.Reader) error {
	lines := newLineReader(in)
	var g grouper
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if len(g.buf) == 0 && strings.HasPrefix(strings.TrimSpace(line), ":") {
			if rp.command(strings.TrimSpace(line)) {
				return nil
			}
			continue
		}
		if input, done := g.add(line, lines.indentedNext); done && rp.handle(ctx, input, nil) {
			return nil
		}
	}
	if len(g.buf) > 0 {
		rp.handle(ctx, g.flush(), nil)
	}
	return nil
}

// lineReader reads lines, and tells whether the next non-blank line has
// already arrived and is indented.
type lineReader struct {
	br *bufio.Reader
	// mayWait: reading ahead never waits for a writer (a file, or a reader
	// in memory); false for a pipe or a terminal, where only what has
	// arrived is looked at, so that a program that writes a block and then
	// waits for its output is not kept waiting.
	mayWait bool
}

func newLineReader(in io.Reader) *lineReader {
	mayWait := true
	if f, ok := in.(*os.File); ok {
		info, err := f.Stat()
		mayWait = err == nil && info.Mode().IsRegular()
	}
	return &lineReader{br: bufio.NewReaderSize(in, 64<<10), mayWait: mayWait}
}

// next returns the next line without its line ending; io.EOF after the
// last.
func (l *lineReader) next() (string, error) {
	line, err := l.br.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || line == "") {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), nil
}

// indentedNext reports whether the next non-blank line has arrived and
// starts with a space or a tab.
func (l *lineReader) indentedNext() bool {
	for size := 4096; ; size *= 2 {
		n := l.br.Buffered()
		if l.mayWait {
			n = min(size, l.br.Size())
		}
		ahead, err := l.br.Peek(n)
		for _, b := range ahead {
			switch b {
			case ' ', '\t':
				// A blank or indented line: look at the rest of the line.
				continue
			case '\n', '\r':
				continue
			}
			return indentedLine(strings.Split(string(ahead), "\n"))
		}
		if err != nil || len(ahead) < n || n >= l.br.Size() || !l.mayWait {
			return false // nothing but blanks has arrived
		}
	}
}
