// Package interp runs one Starlark program the way onetool promises: the
// dialect of SPEC §2.2, capture of the result (§2.3), budgets for steps, time
// and printed output, and errors that point at the user's own lines (§2.5).
// It also owns the single conversion between Starlark and Go values (§2.6)
// and the formatting of results (§2.4).
//
// interp knows nothing about packs or tools: the caller passes the globals a
// program may use (built once and frozen) and reads back a value, printed
// text, or an *Error.
package interp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	slmath "go.starlark.net/lib/math"
	sltime "go.starlark.net/lib/time"
	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Filename is the name under which user code is compiled. It never appears
// in messages: errors speak of lines only.
const Filename = "<run>"

// Options configures one execution. The zero value runs with no globals
// beyond Starlark's universe and no budgets.
type Options struct {
	// Predeclared holds the globals every run sees (packs, combinators,
	// libraries). It must be frozen: it is shared by concurrent runs.
	Predeclared starlark.StringDict

	// MaxSteps bounds Starlark computation steps; 0 means no bound.
	MaxSteps uint64
	// Timeout bounds wall-clock time; 0 means only ctx bounds it.
	Timeout time.Duration
	// SeparateStderr keeps what the program writes to its standard error
	// (PrintErr: Python's sys.stderr, logging) apart, in Result.Stderr and
	// Error.Stderr, for a caller that has a stderr of its own (the CLI).
	// Off, it joins the printed text in the order written, which is what
	// an MCP client, with one text, should see.
	SeparateStderr bool
	// MaxOutput bounds the bytes of printed text; 0 means no bound.
	MaxOutput int
	// MaxMemory bounds the bytes of values the program holds (SPEC §8.1,
	// heap growth); it is kept only when Watchdog is set. 0 means no
	// bound.
	MaxMemory int64
	// Watchdog samples the heap for MaxMemory; share one among runs.
	Watchdog *Watchdog
	// MaxIntDigits bounds the decimal digits of integers that a program
	// makes (parsing, sums, differences, products, shifts, powers; SPEC
	// §8.1), through the front end's helpers; 0 means no bound.
	MaxIntDigits int

	// UndefinedHint follows "'x' is not defined." in the error for an
	// unknown global, e.g. "Available packs: demo, ot".
	UndefinedHint string

	// Redact, when set, returns the run's value with secrets hidden; it is
	// applied before the value is formatted, so that no quoting of a
	// format can hide a secret from redaction (SPEC §8.3).
	Redact func(starlark.Value) starlark.Value

	// Parse reads the source of Exec and of a Session's inputs; nil means
	// Starlark's parser with FileOptions. The runner's is the Python front
	// end (SPEC §2.7).
	Parse Parser

	// ParseWithCells, when set, reads a Session's input in place of
	// Parse when the session keeps variables in cells (see ModuleCell):
	// cells names them, and the input must read and write them through
	// their cells.
	ParseWithCells func(src string, cells []string) (*syntax.File, error)

	// Explain, when set, rephrases the message of an error the
	// interpreter raised (msg, the innermost one of err) in the language
	// of the front end: the Python front end names the exception class,
	// "KeyError: 'k'", as CPython would report it.
	Explain func(err error, msg string) string

	// Executor runs the program's goroutine; nil starts a new one.
	Executor *Executor

	// OverrunGrace is how long a run past its deadline may take to stop
	// on its own before it is answered without it (ErrOverrun); zero
	// means 25 ms. Tests that check a builtin stops itself raise it, so
	// that a loaded machine's scheduling is not taken for an overrun.
	OverrunGrace time.Duration

	// Locals are set as thread-locals so that builtins can reach the
	// services of the caller (a tool caller, statistics) without globals.
	Locals map[string]any

	// SessionKept, when set, is told after each input of a Session the
	// bytes its globals keep (as MaxMemory measures them): a bound beyond
	// one session's, such as one over all the sessions of a principal,
	// returns an error to refuse them, and the session then forgets them
	// all, as when they outgrow MaxMemory. After such a clearing it is
	// told 0.
	SessionKept func(bytes uint64) error

	// session holds a Session's globals, which count against MaxMemory.
	session starlark.StringDict
	// sessionKept is what session held at the end of the last input, as
	// MaxMemory measures it: where the watchdog's bound starts.
	sessionKept uint64
	// host is the session's Host (nil: the run has its own).
	host *Host
	// cells are a Session's module-level cells (see ModuleCell).
	cells map[string]*Cell
	// strDigits is a Session's limit on int–str conversion, which its
	// inputs share (see IntText); nil for a run of its own.
	strDigits *intStrDigits
}

// Result is what a successful run produced.
type Result struct {
	// Value is the captured value (SPEC §2.3), nil when the program had none.
	Value starlark.Value
	// Printed is the text printed by the program, lines joined by "\n"
	// with no trailing newline.
	Printed string
	// Stderr is what the program wrote to its standard error, as written,
	// when Options.SeparateStderr kept it apart (else it is in Printed).
	Stderr string
	// Format is the mode the program asked for with __format__, or "".
	Format string
	// Text is what the user sees (SPEC §2.3, §2.4): the printed text, then
	// the value formatted in Format; "OK (no return value)" when there is
	// neither. It is rendered under the run's budgets, inside its deadline.
	Text string
	// GoValue is Value as plain Go data (see ToGo); nil when there is no
	// value or it has no Go form.
	GoValue any
	// Globals are the program's top-level bindings after the run (empty
	// when the program ran as a function body because it used return).
	Globals starlark.StringDict
	// Steps is the number of computation steps executed: the
	// interpreter's plus the work builtins charged (see Budget).
	Steps uint64
	// Exited is set when the program ended with exit(), sys.exit(0) or
	// raise SystemExit: a REPL leaves, as CPython's does.
	Exited bool
}

// FileOptions is the dialect of SPEC §2.2: sets, while loops, top-level
// control flow, global reassignment and recursion are allowed.
func FileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{
		Set:             true,
		While:           true,
		TopLevelControl: true,
		GlobalReassign:  true,
		Recursion:       true,
	}
}

// StdGlobals returns the library globals of SPEC §2.2 that go.starlark.net
// provides (math, time, struct), frozen. print is part of Starlark's
// universe and is captured by Exec. The json module, which must walk
// values under a run's budget, is package stdlib's, and so is the math
// module programs get (Python's, which replaces this one in the runner).
func StdGlobals() starlark.StringDict {
	d := starlark.StringDict{
		"math":   slmath.Module,
		"time":   sltime.Module,
		"struct": NewBuiltin("struct", starlarkstruct.Make),
	}
	d.Freeze()
	return d
}

const (
	ctxLocal    = "onetool.context"
	outputLocal = "onetool.output"
)

// output is where a run's printed text goes, within MaxOutput.
type output struct {
	printed *strings.Builder
	stderr  strings.Builder // with Options.SeparateStderr
	lim     *limits
	thread  *starlark.Thread
	// redirect holds, by file descriptor (1, 2), the value whose write
	// method takes the text instead (see Redirect); nil for none.
	redirect [3]starlark.Value
}

func (o *output) write(text, end string) error {
	return o.writeTo(o.printed, text, end)
}

// writeTo adds text to w; the output limit bounds both texts together.
// A write past it adds what fits (cut at a character), so that the
// answer shows everything printed up to the limit.
func (o *output) writeTo(w *strings.Builder, text, end string) error {
	if max := o.lim.opts.MaxOutput; max > 0 && o.printed.Len()+o.stderr.Len()+len(text)+len(end) > max {
		room := max - o.printed.Len() - o.stderr.Len()
		if room > 0 {
			part := text + end
			part = part[:min(room, len(part))]
			for range utf8.UTFMax - 1 { // not half a character
				if r, size := utf8.DecodeLastRuneInString(part); r != utf8.RuneError || size != 1 {
					break
				}
				part = part[:len(part)-1]
			}
			w.WriteString(part)
		}
		o.lim.trip(o.thread, errOutput)
		return ErrOutputLimit
	}
	w.WriteString(text)
	w.WriteString(end)
	return nil
}

// PrintErr adds text to what the run executing on thread writes to its
// standard error: kept apart with Options.SeparateStderr, else printed
// as Print prints, in order. The output limit counts it either way.
func PrintErr(thread *starlark.Thread, text string) error {
	if o, ok := thread.Local(outputLocal).(*output); ok {
		switch {
		case o.redirect[2] != nil:
			return o.redirected(thread, 2, text)
		case o.lim.opts.SeparateStderr:
			return o.writeTo(&o.stderr, text, "")
		}
		return o.write(text, "") // not Print: a redirected stdout keeps its own
	}
	return Print(thread, text)
}

// Print adds text to the printed output of the run executing on thread,
// as it is: print() with end= and sep= (SPEC §2.7) composes its own line.
// It fails with ErrOutputLimit when the run's printed-output budget would
// be exceeded. On a thread no run made it falls back to thread.Print.
func Print(thread *starlark.Thread, text string) error {
	if o, ok := thread.Local(outputLocal).(*output); ok {
		if o.redirect[1] != nil {
			return o.redirected(thread, 1, text)
		}
		return o.write(text, "")
	}
	if thread.Print != nil {
		thread.Print(thread, strings.TrimSuffix(text, "\n"))
	}
	return nil
}

// Context returns the context of the run executing on thread, for builtins
// that block: thread.Cancel alone cannot interrupt Go code. It is never nil.
func Context(thread *starlark.Thread) context.Context {
	if ctx, ok := thread.Local(ctxLocal).(context.Context); ok {
		return ctx
	}
	return context.Background()
}

// overrunGrace is how long a run whose deadline passed (or that was
// cancelled) may take to stop on its own before its answer is given
// without it: long enough for a thread between steps to notice, short
// enough that the caller never waits on a Go call that ignores its budget.
const overrunGrace = 25 * time.Millisecond

// Exec parses, compiles and runs code. The error, when not nil, is an
// *Error whose text is what the user should see (without the "Error: "
// prefix the front ends add); errors.Is reaches its cause.
func Exec(ctx context.Context, code string, opts Options) (res *Result, err error) {
	prog, err := CompileWith(code, opts.Parse, opts.Predeclared, opts.UndefinedHint)
	if err != nil {
		return nil, err
	}
	return prog.Run(ctx, opts)
}

// Program is compiled code, ready to run any number of times, also
// concurrently.
type Program struct {
	src      string
	prog     *starlark.Program
	wrapped  bool   // ran as the body of a function because it uses return
	captures bool   // the last top-level statement is an expression
	format   string // a literal __format__ assignment, if any
	// undefined are the names the program reads but nothing defines
	// (see CompileWith); reading one is an error whose did-you-mean is
	// over predeclared, after hint.
	undefined   map[string]bool
	predeclared starlark.StringDict
	hint        string
}

// A Parser reads source text into the syntax tree interp compiles, with
// every position the user's own (line 1 is the first line of src). Its
// errors should be syntax.Error values, which interp renders with a caret
// under the column. The Python front end is one (SPEC §2.7).
type Parser func(src string) (*syntax.File, error)

// ParseStarlark is the Parser of plain Starlark in the dialect of
// FileOptions.
func ParseStarlark(src string) (*syntax.File, error) {
	return FileOptions().Parse(Filename, src, 0)
}

// Compile parses code as Starlark and compiles it against the names in
// predeclared.
func Compile(code string, predeclared starlark.StringDict, undefinedHint string) (*Program, error) {
	return CompileWith(code, nil, predeclared, undefinedHint)
}

// CompileWith is Compile with parse reading the code (nil: ParseStarlark).
func CompileWith(code string, parse Parser, predeclared starlark.StringDict, undefinedHint string) (*Program, error) {
	return CompileChecked(code, parse, predeclared, undefinedHint, nil)
}

// CompileChecked is CompileWith that, once the program is resolved, gives
// its syntax tree to check (when not nil): an error check returns is the
// compile's error, an *Error of KindCheck (at the line its Line method
// gives, if it has one) that wraps it, and the program never runs. The tree's identifiers
// carry their resolve.Binding, so check can tell a predeclared name from
// one the program binds.
func CompileChecked(code string, parse Parser, predeclared starlark.StringDict, undefinedHint string, check func(*syntax.File) error) (*Program, error) {
	if parse == nil {
		parse = ParseStarlark
	}
	f, err := parse(code)
	if err != nil {
		return nil, syntaxError(code, err)
	}
	p := &Program{src: code, format: literalFormat(f.Stmts)}
	if err := checkLoads(code, f); err != nil {
		return nil, err
	}
	p.wrapped, p.captures = shape(f)
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if names := undefinedNames(err); len(names) > 0 {
		// As in CPython, a name nothing defines is an error only when a
		// line that reads it runs (a handler of NameError may catch it,
		// or the line may never run): each becomes a global that is never
		// assigned, whose reading fails with the text an unknown name
		// has always had. The tree is parsed again, since resolving
		// annotated the first.
		if f, err = parse(code); err != nil {
			return nil, syntaxError(code, err)
		}
		shape(f)
		p.undefined = make(map[string]bool, len(names))
		for _, name := range names {
			p.undefined[name] = true
		}
		// The texts are made when a name is read, for that one name: a
		// did-you-mean for each of thousands would be work no budget
		// counts.
		p.predeclared, p.hint = predeclared, undefinedHint
		f.Stmts = append([]syntax.Stmt{neverAssigned(syntax.Start(f.Stmts[0]), names)}, f.Stmts...)
		prog, err = starlark.FileProgram(f, predeclared.Has)
	}
	if err != nil {
		return nil, resolveError(code, err, predeclared, undefinedHint)
	}
	if check != nil {
		if err := check(f); err != nil {
			line := 0
			if l, ok := err.(interface{ Line() int }); ok {
				line = l.Line()
			}
			return nil, NewError(KindCheck, line, 0, err.Error(), err)
		}
	}
	p.prog = prog
	return p, nil
}

// undefinedNames are the names a resolver failure reports undefined, in
// order, when that is all it reports; nil otherwise.
func undefinedNames(err error) []string {
	var list resolve.ErrorList
	if err == nil || !errors.As(err, &list) || len(list) == 0 {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, e := range list {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok {
			return nil
		}
		name, _, _ = strings.Cut(name, " ") // the resolver's own "(did you mean …?)"
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
}

// neverAssigned is `if False: a = None; b = None`, which makes names
// globals of the module that no statement that runs assigns. It comes
// first, at pos (the program's start: the compiled program takes its
// file name from there), since a module-level name must be bound before
// the statements that read it.
func neverAssigned(pos syntax.Position, names []string) syntax.Stmt {
	var stmts []syntax.Stmt
	for _, name := range names {
		stmts = append(stmts, &syntax.AssignStmt{Op: syntax.EQ, OpPos: pos,
			LHS: &syntax.Ident{NamePos: pos, Name: name}, RHS: &syntax.Ident{NamePos: pos, Name: "None"}})
	}
	return &syntax.IfStmt{If: pos, Cond: &syntax.Ident{NamePos: pos, Name: "False"}, True: stmts}
}

// undefinedError is the error of reading a name the program reads but
// nothing defines (see CompileWith): SPEC §2.5's "'brave' is not
// defined. Available packs: …", at the line that read it; nil for any
// other error.
func (p *Program) undefinedError(err error) error {
	if len(p.undefined) == 0 {
		return nil
	}
	ee := nestedEval(err)
	if ee == nil {
		return nil
	}
	name, ok := strings.CutPrefix(innermost(ee).Msg, "global variable ")
	if !ok {
		return nil
	}
	name, ok = strings.CutSuffix(name, " referenced before assignment")
	if !ok || !p.undefined[name] {
		return nil
	}
	text := undefinedText(name, p.predeclared, p.hint)
	frames, line, col := errorAt(err)
	return &Error{Kind: KindUndefined, Line: line, Col: col, Msg: atLine(line, text, frames), causes: []error{err}}
}

// Run executes the program once in a fresh thread and fresh globals.
func (p *Program) Run(ctx context.Context, opts Options) (*Result, error) {
	res, globals, _, err := p.exec(ctx, opts, opts.Predeclared)
	if err != nil {
		return nil, err
	}
	if !p.wrapped {
		res.Globals = globals
	}
	return res, nil
}

// exec runs the program once under the budgets of opts, with predeclared
// as its predeclared names. It returns the program's globals (internal
// names removed) also when the run failed: a session keeps what was
// assigned before the error.
//
// The program runs on a goroutine of its own, so that the answer never
// waits past the deadline (SPEC §8.1): when the context ends, the thread
// is cancelled and stops at its next step; a thread inside a Go call that
// does not return within overrunGrace is left to finish alone (its result
// is dropped) and the run fails at once with the budget's message and
// ErrOverrun among its causes. Then the returned wait, which is otherwise
// nil, waits for the program's goroutine to be done with predeclared
// values (a session's globals).
func (p *Program) exec(ctx context.Context, opts Options, predeclared starlark.StringDict) (res *Result, globals starlark.StringDict, wait func(), err error) {
	var cancel context.CancelFunc
	if opts.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	var printed strings.Builder
	thread, lim := newThread(ctx, opts, &printed)
	thread.SetLocal(predeclaredLocal, predeclared)
	if opts.cells != nil {
		thread.SetLocal(cellsLocal, opts.cells)
	}
	done := make(chan outcome, 1)
	opts.Executor.Go(func() {
		o := p.protected(ctx, thread, lim, predeclared, &printed)
		if opts.host == nil {
			// Generators and tasks left suspended end with the run; a
			// session's live on with its variables.
			HostOf(thread).stopChildren()
		}
		HostOf(thread).detach(thread)
		// Let go of the watchdog before the answer is sent (whoever receives
		// it may measure memory at once), but end the context only after:
		// the caller, seeing it done first, would take the run for one that
		// overran its deadline.
		lim.budget.end()
		if lim.mem != nil {
			opts.Watchdog.remove(lim.mem)
		}
		over := lim.mem != nil && lim.tripped() == ErrMemoryLimit
		done <- o
		cancel()
		if over {
			opts.Watchdog.release()
		}
	})
	select {
	case o := <-done:
		return o.res, o.globals, nil, o.err
	case <-ctx.Done():
	}
	// Deadline or cancellation: stop the thread at its next step.
	lim.trip(thread, ctxKind(ctx))
	graceTime := overrunGrace
	if opts.OverrunGrace > 0 {
		graceTime = opts.OverrunGrace
	}
	grace := time.NewTimer(graceTime)
	defer grace.Stop()
	select {
	case o := <-done:
		return o.res, o.globals, nil, o.err
	case <-grace.C:
	}
	tripped := lim.tripped()
	kind := KindLimit
	if tripped == ErrCancelled {
		kind = KindCancelled
	}
	at, line := "", int(lim.line.Load())
	if line > 0 {
		at = fmt.Sprintf(" at line %d", line)
	}
	return nil, nil, func() { <-done }, &Error{
		Kind:   kind,
		Line:   line,
		Msg:    LimitMessage(lim.message(tripped), at, lim.setting(tripped)),
		causes: []error{tripped, context.Cause(ctx), ErrOverrun},
	}
}

// withPrinted keeps the text printed before err with it. When printing
// was what failed, that is the output limit's worth, and a line marks
// where it was cut, before the error that names the limit.
func withPrinted(err error, printed *strings.Builder) error {
	if e, ok := err.(*Error); ok {
		e.Printed = strings.TrimSuffix(printed.String(), "\n")
		if errors.Is(err, ErrOutputLimit) {
			if e.Printed != "" && !strings.HasSuffix(printed.String(), "\n") {
				e.Printed += "\n"
			}
			e.Printed += OutputCutMark
		}
	}
	return err
}

// OutputCutMark is the line that ends the printed output of a run that
// passed limits.max_output, before its error.
const OutputCutMark = "[… printed output cut here: the limit was reached]"

// withStderr keeps the run's separate standard error with err, whatever
// failed: what a program wrote there before an exception is not lost.
func withStderr(err error, lim *limits) error {
	if e, ok := err.(*Error); ok {
		e.Stderr = lim.out.stderr.String()
	}
	return err
}

// protected is run, with a panic that escaped it (one in the capture or
// the rendering; builtins recover their own) turned into an error rather
// than the end of the process.
func (p *Program) protected(ctx context.Context, thread *starlark.Thread, lim *limits, predeclared starlark.StringDict, printed *strings.Builder) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{err: &Error{Kind: KindInternal, Msg: fmt.Sprintf("internal error: %v", r)}}
		}
	}()
	res, globals, err := p.run(ctx, thread, lim, predeclared, printed)
	if res != nil {
		res.Stderr = lim.out.stderr.String()
	}
	return outcome{res, globals, withStderr(err, lim)}
}

// outcome is what a run's goroutine hands back.
type outcome struct {
	res     *Result
	globals starlark.StringDict
	err     error
}

// run executes the program on thread and captures its result.
func (p *Program) run(ctx context.Context, thread *starlark.Thread, lim *limits, predeclared starlark.StringDict, printed *strings.Builder) (*Result, starlark.StringDict, error) {
	globals, err := p.init(thread, predeclared)
	if herr := runAtEnd(ctx, thread, lim); herr != nil {
		err = herr // a budget stopped a hook: the run ends with it
	}
	value := globals[resultName]
	delete(globals, resultName)
	delete(globals, tickName)
	unwrapCells(globals)
	var exit interface{ CleanExit() bool }
	exited := err != nil && errors.As(err, &exit) && exit.CleanExit()
	if exited {
		// The program exited (Python's exit() or sys.exit(0)): what it
		// printed is its result.
		err, value = nil, nil
	}
	if err != nil {
		if u := p.undefinedError(err); u != nil && lim.tripped() == nil {
			return nil, globals, withPrinted(u, printed)
		}
		return nil, globals, withPrinted(runtimeError(p.src, err, lim, ctx), printed)
	}
	if lim.tripped() != nil { // tripped in the last step, after which nothing failed
		return nil, globals, withPrinted(runtimeError(p.src, lim.tripped(), lim, ctx), printed)
	}
	res := &Result{
		Printed: strings.TrimSuffix(printed.String(), "\n"),
		Format:  p.formatMode(globals, predeclared),
		Value:   p.result(value),
		Exited:  exited,
	}
	if lim.opts.Redact != nil && res.Value != nil {
		res.Value = lim.opts.Redact(res.Value)
	}
	if err := res.render(&lim.budget); err != nil {
		return nil, globals, withPrinted(renderError(p.src, err, lim, ctx), printed)
	}
	res.Steps = lim.budget.Steps()
	return res, globals, nil
}

// formatMode is the __format__ the program chose: the value it assigned
// at top level, else a literal assignment inside wrapped code, else the
// one a session's earlier input set (in predeclared).
func (p *Program) formatMode(globals, predeclared starlark.StringDict) string {
	if s, ok := globals["__format__"].(starlark.String); ok && !p.wrapped {
		return string(s)
	}
	if p.format != "" {
		return p.format
	}
	if s, ok := predeclared["__format__"].(starlark.String); ok {
		return string(s)
	}
	return ""
}

// newThread makes the thread of one execution, with its budgets: printed
// text into printed (up to MaxOutput), steps, and ctx polled for time-outs
// and cancellation.
func newThread(ctx context.Context, opts Options, printed *strings.Builder) (*starlark.Thread, *limits) {
	lim := &limits{opts: opts, ctxAt: pollSteps, strDigits: opts.strDigits}
	if lim.strDigits == nil {
		lim.strDigits = &intStrDigits{}
	}
	if opts.MaxMemory > 0 && opts.Watchdog != nil {
		lim.mem = opts.Watchdog.add(opts.MaxMemory, opts.sessionKept)
	}
	thread := &starlark.Thread{Name: "run"}
	// The budget and the output live in lim: one allocation for all three.
	lim.budget = Budget{ctx: ctx, lim: lim, thread: thread, next: budgetCheck}
	thread.SetLocal(budgetLocal, &lim.budget)
	lim.out = output{printed: printed, lim: lim, thread: thread}
	out := &lim.out
	thread.Print = func(_ *starlark.Thread, msg string) { _ = out.write(msg, "\n") }
	thread.SetLocal(outputLocal, out)
	// The thread polls its context every pollSteps steps instead of being
	// cancelled from a watcher: no goroutine or callback per run, and a
	// cancelled run still stops within a millisecond or two. Tools that
	// block watch the same context themselves.
	thread.OnMaxSteps = func(th *starlark.Thread) { lim.poll(th, ctx) }
	thread.SetMaxExecutionSteps(lim.nextCheck(0))
	thread.SetLocal(ctxLocal, ctx)
	host := opts.host
	if host == nil {
		host = &Host{}
	}
	host.thread = thread
	thread.SetLocal(hostLocal, host)
	for k, v := range opts.Locals {
		thread.SetLocal(k, v)
	}
	return thread, lim
}

// init runs the program, turning a panic in any builtin into an error: a
// bug in one tool must never take the server down.
func (p *Program) init(thread *starlark.Thread, predeclared starlark.StringDict) (g starlark.StringDict, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return p.prog.Init(thread, predeclared)
}
