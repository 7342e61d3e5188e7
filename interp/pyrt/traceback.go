package pyrt

import (
	"errors"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// What the traceback and sys modules know of an exception (package
// stdlib formats it): the frames it passed through between the raise and
// the handler that caught it, and the exception being handled now.
//
// A traceback of CPython has an entry for each frame the exception left,
// from the frame of the try statement that caught it down to the raise.
// The engine records none of that as an exception travels, but its error
// carries the call stack of the raise; when a handler catches it, the
// frames from the one holding the try statement down are kept with the
// exception, each with its function's name and its line, the lowering's
// own functions (the parts of a try statement) folded into the function
// around them, as the run's error text folds them.

// Frame is one entry of a traceback: the function ("<module>" at the top
// level, "<lambda>" for a lambda) and the line it was at.
type Frame struct {
	Name string
	Line int
}

// maxFrames bounds the frames an exception keeps: an exception raised
// again and again in a loop would otherwise gather frames without end
// (CPython's does, without a bound).
const maxFrames = 256

// handlingLocal is the thread-local stack of the exceptions whose
// handlers are running, innermost last.
const handlingLocal = "onetool.python.handling"

// Handling returns the exception whose except clause is running on
// thread (the innermost, when handlers nest), nil outside every handler:
// sys.exc_info(), sys.exception() and traceback.format_exc() read it.
func Handling(thread *starlark.Thread) *ExcValue {
	if thread == nil {
		return nil
	}
	if s, _ := thread.Local(handlingLocal).(*[]*ExcValue); s != nil && len(*s) > 0 {
		return (*s)[len(*s)-1]
	}
	return nil
}

// handle calls handler with args, exc being the exception handled.
func handle(thread *starlark.Thread, handler starlark.Value, args starlark.Tuple, exc *ExcValue) (starlark.Value, error) {
	s, _ := thread.Local(handlingLocal).(*[]*ExcValue)
	if s == nil {
		s = new([]*ExcValue)
		thread.SetLocal(handlingLocal, s)
	}
	*s = append(*s, exc)
	defer func() {
		(*s)[len(*s)-1] = nil
		*s = (*s)[:len(*s)-1]
	}()
	return starlark.Call(thread, handler, args, nil)
}

// caught records on exc the frames err passed through, from the frame of
// the try statement whose handler caught it (the caller of the __ot_try
// builtin running on thread) down to where it was raised. An exception
// caught before and raised again keeps its older frames below the new
// ones, the frame that raised it again counted once (a bare raise).
func caught(thread *starlark.Thread, exc *ExcValue, err error) error {
	ee := innermostEval(err)
	if ee == nil {
		return nil
	}
	stack := ee.CallStack
	if err := interp.BudgetOf(thread).Charge(uint64(len(stack))); err != nil {
		return err
	}
	// The frame holding the try statement is the caller of __ot_try, the
	// builtin now running; its own function when that caller is a part of
	// an enclosing try statement.
	start := thread.CallStackDepth() - 2
	for start > 0 && start < len(stack) && isPart(stack[start].Name) {
		start--
	}
	if start < 0 || start >= len(stack) {
		return nil
	}
	frames := userFrames(stack[start:])
	if old := exc.frames; len(old) > 0 {
		if n := len(frames); n > 0 && frames[n-1].Name == old[0].Name {
			frames = frames[:n-1]
		}
		frames = append(frames, old...)
	}
	if len(frames) > maxFrames {
		// Keep the outermost and the innermost, as a reader wants them.
		frames = append(frames[:maxFrames/2:maxFrames/2], frames[len(frames)-maxFrames/2:]...)
	}
	exc.frames = frames
	return nil
}

// isPart reports whether name is a function the lowering made (a part of
// a try statement), whose code is its enclosing function's.
func isPart(name string) bool {
	return strings.HasPrefix(name, "__ot_") && name != "__ot_main__"
}

// userFrames are the frames of stack in the program, outermost first:
// the builtins left out and the lowering's functions folded into the
// function around them.
func userFrames(stack starlark.CallStack) []Frame {
	var frames []Frame
	for _, fr := range stack {
		if fr.Pos.Filename() != interp.Filename || fr.Pos.Line == 0 {
			continue
		}
		if isPart(fr.Name) {
			if n := len(frames); n > 0 {
				frames[n-1].Line = int(fr.Pos.Line)
				continue
			}
		}
		frames = append(frames, Frame{Name: frameName(fr.Name), Line: int(fr.Pos.Line)})
	}
	return frames
}

// frameName is a function's name as CPython's tracebacks give it.
func frameName(name string) string {
	switch {
	case name == "<toplevel>" || name == "__ot_main__" || isPart(name):
		return "<module>"
	case name == "lambda":
		return "<lambda>"
	}
	return name
}

// innermostEval is the evaluation error raised deepest in err (a
// callback failing inside a builtin nests one in another); nil when err
// has none. It does not cross into another program's *interp.Error.
func innermostEval(err error) *starlark.EvalError {
	var found *starlark.EvalError
	for err != nil {
		if _, ok := err.(*interp.Error); ok {
			break
		}
		if ee, ok := err.(*starlark.EvalError); ok {
			found = ee
		}
		err = errors.Unwrap(err)
	}
	return found
}

// CallerFrames are the frames of the program that is running on thread,
// outermost first, without the builtin now running: for
// traceback.extract_stack() and the lineno and funcName of a log record.
func CallerFrames(thread *starlark.Thread) []Frame {
	if thread == nil {
		return nil
	}
	return userFrames(thread.CallStack())
}

// Frames are the traceback entries of e, outermost first: none for an
// exception that no handler caught yet (one only made, or a cause).
func (e *ExcValue) Frames() []Frame { return e.frames }

// Cause is e.__cause__, nil when there is none.
func (e *ExcValue) Cause() *ExcValue {
	c, _ := e.cause.(*ExcValue)
	return c
}

// Context is e.__context__, nil when there is none or when the exception
// was raised with a from clause (__suppress_context__).
func (e *ExcValue) Context() *ExcValue {
	if e.suppress {
		return nil
	}
	return e.context
}

// QualName is the class's name as CPython's last traceback line gives
// it: a builtin's and a program's alone, a module's qualified by the
// module ("json.decoder.JSONDecodeError").
func (c *ExcClass) QualName() string {
	if c.builtin && c.name == "JSONDecodeError" { // json's, kept among the builtins
		return "json.decoder.JSONDecodeError"
	}
	if c.module != "" {
		return c.module + "." + c.name
	}
	return c.name
}

// Traceback is the value of e.__traceback__ and of sys.exc_info()[2]:
// the frames of an exception from one entry down (tb_next).
type Traceback struct {
	frames []Frame
}

var _ starlark.HasAttrs = (*Traceback)(nil)

// NewTraceback returns the traceback of frames, None when there are none.
func NewTraceback(frames []Frame) starlark.Value {
	if len(frames) == 0 {
		return starlark.None
	}
	return &Traceback{frames: frames}
}

// Frames are the entries from this one down, outermost first.
func (t *Traceback) Frames() []Frame { return t.frames }

func (t *Traceback) String() string        { return "<traceback object>" }
func (t *Traceback) Type() string          { return "traceback" }
func (t *Traceback) Freeze()               {}
func (t *Traceback) Truth() starlark.Bool  { return true }
func (t *Traceback) Hash() (uint32, error) { return uint32(len(t.frames)), nil }

func (t *Traceback) Attr(name string) (starlark.Value, error) {
	switch name {
	case "tb_lineno":
		return starlark.MakeInt(t.frames[0].Line), nil
	case "tb_next":
		return NewTraceback(t.frames[1:]), nil
	case "tb_lasti":
		return starlark.MakeInt(0), nil
	}
	return nil, nil
}

func (t *Traceback) AttrNames() []string { return []string{"tb_lasti", "tb_lineno", "tb_next"} }

// tuplePair returns x and y as plain tuples when one is a value of a
// tuple's subclass (a namedtuple, sys.version_info) and the other a tuple
// or one too: Python compares them element by element, as tuples.
func tuplePair(x, y starlark.Value) (starlark.Tuple, starlark.Tuple, bool) {
	tx, xsub, xok := tupleOf(x)
	ty, ysub, yok := tupleOf(y)
	if !xok || !yok || !xsub && !ysub {
		return nil, nil, false
	}
	return tx, ty, true
}

// tupleOf is v as a tuple: a tuple itself, or a tuple's subclass (sub).
func tupleOf(v starlark.Value) (t starlark.Tuple, sub, ok bool) {
	if t, ok := v.(starlark.Tuple); ok {
		return t, false, true
	}
	s, isSub := v.(Subclass)
	seq, isSeq := v.(starlark.Indexable)
	if !isSub || !isSeq || s.BuiltinBase() != "tuple" {
		return nil, false, false
	}
	t = make(starlark.Tuple, seq.Len())
	for i := range t {
		t[i] = seq.Index(i)
	}
	return t, true, true
}
