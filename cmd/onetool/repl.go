package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/reeflective/readline"
	"github.com/reeflective/readline/inputrc"
	"github.com/spf13/cobra"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
	"golang.org/x/term"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python/pyast"
	"github.com/onetool-dev/onetool/packs"
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
blank line ends. Ctrl-C cancels the running input or clears the line;
Ctrl-D on an empty line exits. Commands: :help, :packs, :reset, :quit.

When standard input is not a terminal, lines are read and grouped into
inputs the same way, and only the outputs are printed: no prompts.
Exit status: 0, or 1 when standard input was not a terminal and some
input failed (every input still runs); 2 on usage errors.`,
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
			rp := &repl{r: r, s: r.NewSession(), out: cmd.OutOrStdout()}
			if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				return rp.interactive(cmd.Context(), path, cmd.ErrOrStderr())
			}
			if err := rp.piped(cmd.Context(), cmd.InOrStdin()); err != nil {
				return &exitError{code: exitRun, msg: fmt.Sprintf("reading standard input: %v", err)}
			}
			if rp.failed {
				return &exitError{code: exitRun}
			}
			return nil
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
	failed bool // some input failed
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
	if res.IsError() {
		rp.failed = true
	}
	if out, ok := replOutput(res); ok {
		fmt.Fprintln(rp.out, out)
	}
	return false
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
and parameters (demo.foo(te<Tab>). Ctrl-C cancels a running input or
clears the line; Ctrl-D exits.

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
	br := bufio.NewReader(in)
	var buf []string
	flush := func() (quit bool) {
		input := strings.Join(buf, "\n")
		buf = buf[:0]
		return rp.handle(ctx, input, nil)
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		eof := err != nil
		if eof && line == "" {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if len(buf) == 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(line), ":") {
				if rp.command(strings.TrimSpace(line)) {
					return nil
				}
				continue
			}
		}
		if strings.TrimSpace(line) == "" {
			if blankEnds(strings.Join(buf, "\n")) {
				if flush() {
					return nil
				}
				continue
			}
		}
		buf = append(buf, line)
		if classify(strings.Join(buf, "\n")) == inputComplete && flush() {
			return nil
		}
		if eof {
			break
		}
	}
	if len(buf) > 0 {
		flush()
	}
	return nil
}

// inputState is what accumulated input lines need before they run.
type inputState int

const (
	inputComplete inputState = iota // run it (it may be a syntax error: running shows it)
	inputMore                       // unfinished: open brackets, a triple-quoted string, a trailing operator in brackets
	inputBody                       // a block header (':') with no body yet
	inputBlock                      // a compound statement: a blank line ends it
)

// classify parses src the way the runner will (as Python) and says
// whether it is complete. An error that more text would cure (an open
// bracket or triple-quoted string, a header without its body, a try
// without its handler) means more is to come; any other syntax error is
// complete, so that running it reports the error.
func classify(src string) inputState {
	m, err := pyast.Parse(interp.Filename, src+"\n")
	if err != nil {
		var se syntax.Error
		if !errors.As(err, &se) {
			return inputComplete
		}
		// Only an error on the last line is one that more lines can cure.
		atEnd := int(se.Pos.Line) >= strings.Count(strings.TrimRight(src, "\n"), "\n")+1
		switch {
		case atEnd && strings.HasPrefix(se.Msg, "expected an indented block") && endsHeader(src):
			return inputBody
		case atEnd && strings.HasPrefix(se.Msg, "expected 'except' or 'finally' block"):
			return inputBlock
		case strings.HasSuffix(se.Msg, "was never closed"),
			strings.HasPrefix(se.Msg, "unterminated triple-quoted string"),
			se.Msg == "unexpected EOF while parsing":
			return inputMore
		}
		return inputComplete
	}
	if n := len(m.Body); n > 0 {
		switch m.Body[n-1].(type) {
		case *pyast.FunctionDef, *pyast.ClassDef, *pyast.If, *pyast.For, *pyast.While,
			*pyast.Try, *pyast.With, *pyast.Match:
			return inputBlock
		}
	}
	return inputComplete
}

// endsHeader reports whether the last line of src is a block header
// (it ends with ':'), which the next line would give its body.
func endsHeader(src string) bool {
	lines := strings.Split(strings.TrimRight(src, " \t\n"), "\n")
	return strings.HasSuffix(lines[len(lines)-1], ":")
}

// blankEnds reports whether a blank line after src ends the input: it
// ends a block (and a header without a body, to show the error), but not
// open brackets or a triple-quoted string, where it is part of the text.
func blankEnds(src string) bool {
	return classify(src) != inputMore
}

// accept is the terminal's Enter: true runs the buffer, false opens a
// continuation line.
func accept(buffer string) bool {
	text := strings.TrimSpace(buffer)
	if text == "" || (strings.HasPrefix(text, ":") && !strings.Contains(text, "\n")) {
		return true
	}
	lines := strings.Split(buffer, "\n")
	if last := lines[len(lines)-1]; strings.TrimSpace(last) == "" && len(lines) > 1 {
		return blankEnds(strings.Join(lines[:len(lines)-1], "\n"))
	}
	return classify(buffer) == inputComplete
}

// interactive runs the REPL on a terminal with line editing.
func (rp *repl) interactive(ctx context.Context, historyPath string, stderr io.Writer) error {
	rl := readline.NewShell()
	rl.Prompt.Primary(func() string { return primaryPrompt })
	// The input always starts at column 0 after a printed output, so the
	// prompt width is exact; asking the terminal (ESC[6n) would hang on
	// terminals that never answer.
	rl.Config.Set("cursor-position-probe", false)
	// Continuation lines show "... ": the editor indents them by the
	// prompt's width, and the display rewrites that indentation. (Its own
	// multi-line indicators draw a bar on all but the last line.)
	rl.Config.Set("multiline-column", false)
	rl.SyntaxHighlighter = func(line []rune) string {
		return strings.ReplaceAll(string(line), "\n", "\n\r"+continuationPrompt)
	}
	// Tab inserts what the candidates share and lists them; Tab again
	// walks the list.
	rl.Config.Set("menu-complete-display-prefix", true)
	rl.Config.Bind("emacs", inputrc.Unescape(`\C-i`), "menu-complete", false)
	rl.AcceptMultiline = func(line []rune) bool { return accept(string(line)) }
	c := &completer{r: rp.r, s: rp.s}
	rl.Completer = c.complete
	if historyPath != "" {
		if err := openHistory(historyPath); err != nil {
			fmt.Fprintf(stderr, "onetool: history not kept: %v\n", err)
		} else if h, err := readline.NewHistoryFromFile(historyPath); err == nil {
			rl.History.Add("history", h)
		} else {
			fmt.Fprintf(stderr, "onetool: history not kept: %v\n", err)
		}
	}

	// Outside the line editor the terminal sends Ctrl-C as SIGINT: catch
	// it for the whole session, so that it cancels the running input and
	// never ends the REPL.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)

	fmt.Fprintln(rp.out, "onetool REPL. :help for help, Ctrl-D to exit.")
	for {
		select { // a Ctrl-C that came after the last input ended is stale
		case <-interrupt:
		default:
		}
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			continue // Ctrl-C at the prompt: the line is dropped
		case errors.Is(err, io.EOF):
			fmt.Fprintln(rp.out)
			return nil
		case err != nil:
			return &exitError{code: exitRun, msg: fmt.Sprintf("reading the terminal: %v", err)}
		}
		if rp.handle(ctx, line, interrupt) {
			return nil
		}
	}
}

// openHistory makes sure the history file exists, private to the user.
func openHistory(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// completer completes Python at the REPL's cursor.
type completer struct {
	r *runner.Runner
	s *runner.Session
}

// keywords are the Python keywords worth completing (those of the
// constructs the front end accepts).
var keywords = []string{"and", "as", "assert", "break", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
	"pass", "raise", "return", "try", "while"}

// complete is the line editor's completer: see candidates.
func (c *completer) complete(line []rune, cursor int) readline.Completions {
	prefix, cands := c.candidates(string(line[:cursor]))
	comps := readline.CompleteRaw(cands).NoSort() // parameters in signature order
	comps.PREFIX = prefix
	return comps
}

// candidates completes the text before the cursor. It offers the functions
// of a pack after "pack." (as "pack.fn("), parameter names ("name=") and
// globals inside a tool call's parentheses, the globals elsewhere, and four
// spaces at the start of a line. prefix is the text before the cursor that
// a candidate's Value replaces.
func (c *completer) candidates(before string) (prefix string, cands []readline.Completion) {
	ctx, ok := scanContext(before)
	if !ok { // inside a string or a comment
		return "", nil
	}
	lineStart := strings.LastIndexByte(before, '\n') + 1
	if strings.TrimSpace(before[lineStart:]) == "" {
		// Tab at the start of a line indents, as in Python's REPL.
		return "", []readline.Completion{{Value: "    ", Display: "    "}}
	}
	word := trailingWord(before)
	type cand struct{ value, display, desc string }
	var list []cand
	if obj, partial, dotted := cutLast(word, "."); dotted {
		for _, m := range c.members(obj) {
			if strings.HasPrefix(m.name, partial) {
				list = append(list, cand{obj + "." + m.name, m.name, m.desc})
			}
		}
	} else {
		if t := c.tool(ctx.call); t != nil {
			for _, p := range t.Params() {
				if strings.HasPrefix(p.Name, word) {
					list = append(list, cand{p.Name + "=", p.Name + "=", p.Type})
				}
			}
			if word == "" || len(list) > 0 { // the parameters first: a call's own names
				goto done
			}
		}
		for _, g := range c.globals() {
			if strings.HasPrefix(g, word) {
				list = append(list, cand{g, g, ""})
			}
		}
	}
done:
	// The candidates replace the word. An empty prefix would make the line
	// editor replace the blank-separated word ("demo.foo(" before an empty
	// word): then complete that word, showing only the new part.
	lead := ""
	if word == "" {
		lead = blankWord(before)
	}
	for _, k := range list {
		cands = append(cands, readline.Completion{Value: lead + k.value, Display: k.display, Description: k.desc})
	}
	return lead + word, cands
}

// member is a name after "obj.".
type member struct{ name, desc string }

// members lists what completes after "obj.": a pack's functions (with
// "(" and the first sentence of their description) or the attributes of a
// library module.
func (c *completer) members(obj string) []member {
	var out []member
	if p, ok := c.r.Registry().Pack(obj); ok {
		for _, t := range p.Tools() {
			out = append(out, member{t.Name + "(", firstSentence(t.Description)})
		}
		return out
	}
	if m, ok := c.r.Globals()[obj].(*starlarkstruct.Module); ok {
		for _, n := range m.AttrNames() {
			out = append(out, member{n, ""})
		}
	}
	return out
}

// firstSentence shortens a description for a completion menu.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// tool resolves a callee such as "demo.foo" or an alias to its tool.
func (c *completer) tool(callee string) *packs.Tool {
	reg := c.r.Registry()
	aliases := c.r.Config().Aliases
	for range 10 { // aliases of aliases; cycles are configuration errors
		target, isAlias := aliases[callee]
		if !isAlias {
			break
		}
		callee = strings.ReplaceAll(target, ":", ".")
	}
	if t, ok := reg.Tool(callee); ok {
		return t
	}
	return nil
}

// globals lists every name a program can use at the top level.
func (c *completer) globals() []string {
	seen := map[string]bool{}
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if !seen[n] && !strings.HasPrefix(n, "__") {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, p := range c.r.PackSummaries() {
		add(p.Name)
	}
	for n := range c.r.Config().Aliases {
		add(n)
	}
	add(c.s.Names()...)
	for n, v := range c.r.Globals() { // combinators, builtins, modules, proj
		if !interp.IsUnavailable(v) { // open(), eval(): there only to fail with a hint
			add(n)
		}
	}
	for n := range starlark.Universe {
		add(n)
	}
	add(keywords...)
	slices.Sort(out)
	return out
}

// callContext is where the cursor is in the text before it.
type callContext struct {
	call string // the callee of the innermost open '(' ("demo.foo"), if any
}

// scanContext scans the text before the cursor with Starlark's token
// rules for brackets, strings and comments. ok is false inside a string or
// a comment.
func scanContext(text string) (ctx callContext, ok bool) {
	type open struct {
		ch     byte
		callee string
	}
	var stack []open
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '#':
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return ctx, false
			}
			i += nl
		case '"', '\'':
			quote := string(ch)
			if strings.HasPrefix(text[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
			}
			j := i + len(quote)
			for ; j < len(text); j++ {
				if text[j] == '\\' {
					j++
					continue
				}
				if strings.HasPrefix(text[j:], quote) {
					break
				}
				if len(quote) == 1 && text[j] == '\n' {
					break
				}
			}
			if j >= len(text) {
				return ctx, false
			}
			i = j + len(quote) - 1
		case '(', '[', '{':
			o := open{ch: ch}
			if ch == '(' {
				o.callee = trailingWord(strings.TrimRight(text[:i], " \t"))
			}
			stack = append(stack, o)
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if n := len(stack); n > 0 && stack[n-1].ch == '(' {
		ctx.call = stack[n-1].callee
	}
	return ctx, true
}

// trailingWord is the dotted identifier that ends text ("demo.fo" in
// "x = demo.fo").
func trailingWord(text string) string {
	i := len(text)
	for i > 0 {
		ch := text[i-1]
		if ch == '_' || ch == '.' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' {
			i--
			continue
		}
		break
	}
	return text[i:]
}

// blankWord is the text after the last blank, as the line editor sees it.
func blankWord(text string) string {
	return text[strings.LastIndexAny(text, " \t\n")+1:]
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
