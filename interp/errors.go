package interp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/internal/suggest"
)

// ErrorKind classifies a failed run, for statistics and for callers that
// react differently to, say, a syntax error and a timeout.
type ErrorKind string

const (
	KindSyntax    ErrorKind = "syntax"    // the code does not parse or resolve
	KindUndefined ErrorKind = "undefined" // an unknown global name
	KindRuntime   ErrorKind = "runtime"   // evaluation failed (including tool failures)
	KindLimit     ErrorKind = "limit"     // a budget was exceeded
	KindCancelled ErrorKind = "cancelled" // the caller cancelled the run
	KindInternal  ErrorKind = "internal"  // a bug: a recovered panic
	KindCheck     ErrorKind = "check"     // a check before the run (CompileChecked) refused it
)

// Error is a failed run, already phrased for the user: Error() is the text
// to show after "Error: ", positions are the user's lines, and no Go stack
// or internal name appears. errors.Is and errors.As reach the cause (a
// budget sentinel, a context error, or a tool's own error).
type Error struct {
	Kind ErrorKind
	// Line and Col locate the error in the user's code; 0 when unknown.
	Line, Col int
	// Msg is the complete text, possibly several lines (caret, hint).
	Msg string
	// Printed is what the program printed before it failed, lines joined
	// by "\n" with no trailing newline: as in Python, the output a program
	// wrote before an exception is not lost.
	Printed string
	// Stderr is what it wrote to its standard error, with
	// Options.SeparateStderr.
	Stderr string
	causes []error
}

func (e *Error) Error() string   { return e.Msg }
func (e *Error) Unwrap() []error { return e.causes }

// syntaxError renders a parse error with a caret under the offending
// column and, when the code looks like Python, a hint.
func syntaxError(src string, err error) error {
	var he *HintedError
	if errors.As(err, &he) {
		return hintedError(src, he)
	}
	var se syntax.Error
	if !errors.As(err, &se) {
		return &Error{Kind: KindSyntax, Msg: "syntax error: " + err.Error(), causes: []error{err}}
	}
	return staticError(src, se.Pos, se.Msg, err)
}

// hintedError renders a refusal of the front end: the message, the line
// with a caret, and its hint.
func hintedError(src string, he *HintedError) error {
	e := staticError(src, he.Pos, he.Msg, he).(*Error)
	if i := strings.Index(e.Msg, "\nhint: "); i >= 0 {
		e.Msg = e.Msg[:i] // the regexp hints are for Starlark's parser
	}
	if he.Hint != "" {
		e.Msg += "\nhint: " + he.Hint
	}
	return e
}

func staticError(src string, pos syntax.Position, msg string, cause error) error {
	line, col := int(pos.Line), int(pos.Col)
	// The parser's grammar words mean nothing to users: "primary
	// expression" is just an expression.
	msg = strings.ReplaceAll(msg, "want primary expression", "want expression")
	var b strings.Builder
	fmt.Fprintf(&b, "syntax error at line %d, column %d: %s", line, col, msg)
	text := sourceLine(src, line)
	if text != "" {
		b.WriteString("\n    ")
		b.WriteString(text)
		b.WriteString("\n    ")
		b.WriteString(caretPad(text, col))
		b.WriteByte('^')
	}
	if h := pythonHint(text, msg); h != "" {
		b.WriteString("\nhint: ")
		b.WriteString(h)
	}
	return &Error{Kind: KindSyntax, Line: line, Col: col, Msg: b.String(), causes: []error{cause}}
}

func sourceLine(src string, line int) string {
	if line < 1 {
		return ""
	}
	for i := 1; i < line; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(src, " \t")
}

// caretPad is the whitespace that puts a caret under column col (1-based,
// in runes), copying tabs so that the caret lines up however tabs render.
func caretPad(text string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range text {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	for ; i < col; i++ {
		b.WriteByte(' ')
	}
	return b.String()
}

// pythonHintRule is a Python-ism that LLMs write out of habit, with the
// Starlark way.
type pythonHintRule struct {
	re   *regexp.Regexp
	hint string
}

// pythonHints are compiled on the first error that needs them, not at
// start-up (issue 20).
var pythonHints = sync.OnceValue(func() []pythonHintRule {
	return []pythonHintRule{
		{regexp.MustCompile(`(^|[^\w])[rRbB]?[fF][rRbB]?["']`), `Starlark has no f-strings: use "{}".format(x) or "%s" % x`},
		{regexp.MustCompile(`^\s*(try|except|finally)\b`), "Starlark has no exceptions (try/except): check values first, and use fail(\"message\") to stop"},
		{regexp.MustCompile(`^\s*raise\b`), `Starlark has no raise: use fail("message")`},
		{regexp.MustCompile(`^\s*(import\s|from\s+\S+\s+import\b)`), "Starlark has no import: every pack is already a global (see ot.packs())"},
		{regexp.MustCompile(`^\s*class\b`), "Starlark has no classes: use dicts, struct(...) or functions"},
		{regexp.MustCompile(`\sis(\s+not)?\s`), "Starlark has no 'is': compare with == and != (x == None)"},
		{regexp.MustCompile(`\*\*`), "Starlark has no ** operator: use math.pow(x, y)"},
		{regexp.MustCompile(`^\s*with\b`), "Starlark has no with statement: call the function directly"},
	}
})

func pythonHint(line, msg string) string {
	for _, h := range pythonHints() {
		if h.re.MatchString(line) {
			return h.hint
		}
	}
	return ""
}

// checkLoads refuses load() up front with a useful text, instead of the
// interpreter's "load not implemented".
func checkLoads(src string, f *syntax.File) error {
	for _, s := range f.Stmts {
		if l, ok := s.(*syntax.LoadStmt); ok {
			return staticError(src, l.Load, "load() is not available: every pack is already a global (see ot.packs())", errors.New("load not available"))
		}
	}
	return nil
}

// resolveError turns a resolver failure into the user's text. An unknown
// global gets the list of packs and a did-you-mean over everything visible.
func resolveError(src string, err error, predeclared starlark.StringDict, hint string) error {
	var list resolve.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return &Error{Kind: KindSyntax, Msg: "syntax error: " + err.Error(), causes: []error{err}}
	}
	first := list[0]
	if name, ok := strings.CutPrefix(first.Msg, "undefined: "); ok {
		name, _, _ = strings.Cut(name, " ") // drop the resolver's own "(did you mean …?)"
		msg := fmt.Sprintf("line %d: %s", first.Pos.Line, undefinedText(name, predeclared, hint))
		return &Error{Kind: KindUndefined, Line: int(first.Pos.Line), Col: int(first.Pos.Col), Msg: msg, causes: []error{err}}
	}
	return staticError(src, first.Pos, first.Msg, err)
}

// undefinedText is the error for a name nothing defines: "'brave' is not
// defined." with hint (the packs there are), and a did-you-mean over
// every name visible.
func undefinedText(name string, predeclared starlark.StringDict, hint string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "'%s' is not defined.", name)
	if hint != "" {
		b.WriteString(" ")
		b.WriteString(hint)
	}
	var candidates []string
	for _, k := range append(predeclared.Keys(), starlark.Universe.Keys()...) {
		if !strings.HasPrefix(k, "__ot_") && !IsUnavailable(predeclared[k]) { // a front end's helpers are not for users
			candidates = append(candidates, k)
		}
	}
	if s := suggest.Closest(name, candidates); s != "" {
		fmt.Fprintf(&b, "\ndid you mean '%s'?", s)
	}
	return b.String()
}

// runtimeError maps an evaluation failure to the user's lines: the
// innermost frame in user code gives the line, and the frames around it
// become "(in helper, called from line 6)". Wrapper frames never show.
func runtimeError(src string, err error, lim *limits, ctx context.Context) error {
	frames, line, col := errorAt(err)
	at := ""
	if line > 0 {
		at = fmt.Sprintf(" at line %d", line)
	}

	tripped := lim.tripped()
	if tripped == nil && ctx.Err() != nil {
		// A tool saw the context end before the thread polled it.
		lim.kind.CompareAndSwap(0, int32(ctxKind(ctx)))
		tripped = lim.tripped()
	}
	if tripped != nil {
		kind := KindLimit
		if tripped == ErrCancelled {
			kind = KindCancelled
		}
		causes := []error{tripped}
		if ctx.Err() != nil {
			causes = append(causes, ctx.Err())
		}
		if tripped == ErrMemoryLimit {
			// The check runs wherever the program happens to be when the
			// watchdog alarms, not where it allocated: a line would mislead.
			at = ""
		}
		return &Error{Kind: kind, Line: line, Col: col, Msg: LimitMessage(lim.message(tripped), at, lim.setting(tripped)), causes: causes}
	}

	var msg string
	if ee := nestedEval(err); ee != nil {
		msg = innermost(ee).Msg // not err.Error(), which copies it with a backtrace
	} else {
		msg = err.Error()
	}
	msg = clipMessage(msg)
	kind := KindRuntime
	if strings.HasPrefix(msg, "internal error: ") {
		kind = KindInternal
	}
	switch msg {
	case "Starlark stack overflow":
		msg = "recursion too deep (more than 100000 nested calls)"
	case "floored division by zero", "floating-point division by zero", "floating-point modulo by zero", "integer modulo by zero",
		"float division by zero", "float floor division by zero":
		// One plain phrase for every kind of division.
		msg = "division by zero"
	}
	if lim.opts.Explain != nil && kind == KindRuntime {
		msg = lim.opts.Explain(err, msg)
	}
	var b strings.Builder
	b.WriteString(atLine(line, msg, frames))
	// A front end's error may say what to write instead, on a line of its
	// own as for syntax it refuses.
	var advice interface{ Hint() string }
	if errors.As(err, &advice) && advice.Hint() != "" {
		b.WriteString("\nhint: ")
		b.WriteString(advice.Hint())
	}
	return &Error{Kind: kind, Line: line, Col: col, Msg: b.String(), causes: []error{err}}
}

// errorAt is where err happened in the user's code: the frames that led
// there (innermost last) and the innermost one's line and column, 0 when
// none is the user's.
func errorAt(err error) (frames []starlark.CallFrame, line, col int) {
	frames = userFrames(err)
	if n := len(frames); n > 0 {
		line, col = int(frames[n-1].Pos.Line), int(frames[n-1].Pos.Col)
	}
	return frames, line, col
}

// atLine is msg at line ("line 4: msg"), with the backtrace of the
// calls that led there at the end of its first line: what follows that
// line (an exception's notes, a did-you-mean) reads as lines of its own.
func atLine(line int, msg string, frames []starlark.CallFrame) string {
	var b strings.Builder
	if line > 0 {
		fmt.Fprintf(&b, "line %d: ", line)
	}
	first, rest, multi := strings.Cut(msg, "\n")
	b.WriteString(first)
	if trace := backtrace(frames); trace != "" {
		b.WriteString(" (" + trace + ")")
	}
	if multi {
		b.WriteString("\n" + rest)
	}
	return b.String()
}

// innermost follows nested evaluation errors (a Starlark callback failing
// inside a builtin such as sorted) to the one raised deepest in this
// thread. It does not cross into an *Error: that is another program (a
// Starlark toolpack called as a tool) whose failure is already phrased.
func innermost(ee *starlark.EvalError) *starlark.EvalError {
	for {
		next := nestedEval(errors.Unwrap(ee))
		if next == nil {
			return ee
		}
		ee = next
	}
}

func nestedEval(err error) *starlark.EvalError {
	for err != nil {
		switch e := err.(type) {
		case *Error:
			return nil
		case *starlark.EvalError:
			return e
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if found := nestedEval(inner); found != nil {
					return found
				}
			}
			return nil
		}
		err = errors.Unwrap(err)
	}
	return nil
}

// userFrames returns the frames of the deepest evaluation error that lie in
// user code, outermost first, without the synthetic top-level call that
// runs wrapped code.
func userFrames(err error) []starlark.CallFrame {
	ee, ok := err.(*starlark.EvalError)
	if !ok {
		if ee = nestedEval(err); ee == nil {
			return nil
		}
	}
	ee = innermost(ee)
	stack := ee.CallStack
	// An exception raised again after a handler caught it (Python's bare
	// raise) reports where it was first raised, as CPython's traceback
	// ends there.
	var o interface{ Origin() starlark.CallStack }
	if errors.As(ee.Unwrap(), &o) && len(o.Origin()) > 0 {
		stack = o.Origin()
	}
	var frames []starlark.CallFrame
	for _, fr := range stack {
		if fr.Pos.Filename() != Filename || fr.Pos.Line == 0 {
			continue
		}
		if strings.HasPrefix(fr.Name, "__ot_") && fr.Name != mainName {
			// A function a front end made (a part of a try statement)
			// runs code of the function around it.
			if n := len(frames); n > 0 {
				frames[n-1].Pos = fr.Pos
			}
			continue
		}
		frames = append(frames, fr)
	}
	// In wrapped code the real top level is __ot_main__; the <toplevel>
	// frame above it is the wrapper's own call.
	if i := slices.IndexFunc(frames, func(fr starlark.CallFrame) bool { return fr.Name == mainName }); i > 0 {
		frames = frames[i:]
	}
	return frames
}

func isTopLevel(fr starlark.CallFrame) bool {
	return fr.Name == "<toplevel>" || fr.Name == mainName
}

// backtrace describes the calls that led to the innermost frame:
// "in inner, called from line 3 in outer, called from line 6". Deep
// recursion is shortened to the innermost calls and the entry point.
func backtrace(frames []starlark.CallFrame) string {
	var segs []string
	for i := len(frames) - 1; i >= 1; i-- {
		if isTopLevel(frames[i]) {
			break
		}
		segs = append(segs, fmt.Sprintf("in %s, called from line %d", frames[i].Name, frames[i-1].Pos.Line))
	}
	if len(frames) > 0 && !isTopLevel(frames[0]) {
		// The outermost frame is itself a function (a toolpack's entry
		// point): name it too.
		if len(segs) == 0 {
			segs = append(segs, "in "+frames[0].Name)
		} else {
			segs[len(segs)-1] += " in " + frames[0].Name
		}
	}
	if len(segs) > 4 {
		n := len(segs)
		segs = append(segs[:3:3], fmt.Sprintf("... %d more calls ...", n-4), segs[n-1])
	}
	return strings.Join(segs, " ")
}

// Rephrased returns a copy of e with another kind and text and the same
// causes, for callers that know better what a failure means (a budget
// counted outside the interpreter, for instance).
func (e *Error) Rephrased(kind ErrorKind, msg string) *Error {
	c := *e
	c.Kind, c.Msg = kind, msg
	return &c
}

// NewError returns an *Error with the given text whose causes errors.Is
// reaches: for callers that rebuild an error made elsewhere, such as the
// result of a run in a worker process.
func NewError(kind ErrorKind, line, col int, msg string, causes ...error) *Error {
	return &Error{Kind: kind, Line: line, Col: col, Msg: msg, causes: causes}
}

// renderError phrases a failure to render the result: a budget spent
// while formatting reads like any budget (without a line: the program has
// ended), and a value too deep to show says so.
func renderError(src string, err error, lim *limits, ctx context.Context) error {
	if isBudget(err) || lim.tripped() != nil {
		return runtimeError(src, err, lim, ctx)
	}
	return &Error{Kind: KindRuntime, Msg: "the result cannot be shown: " + err.Error(), causes: []error{err}}
}

// maxMessage is the most of an error's message an answer shows. A program
// may raise an exception whose message is a 200 MB text (fail("x" * n)):
// classifying, redacting and sending it took a core for a minute after
// the answer and a gigabyte on the way. Inside the program, str(e) is
// whole; the answer shows the start and says how much is left out.
const maxMessage = 64 << 10

// clipMessage cuts msg to maxMessage bytes, at a character, noting the rest.
func clipMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes of the message not shown)", msg[:cut], len(msg)-cut)
}
