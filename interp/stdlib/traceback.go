package stdlib

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Traceback is the traceback module: the text CPython prints for an
// exception. A program's code has no file, so each entry reads as
// CPython's does for code run from a string (python3 -c): `File
// "<string>", line 5, in main`, with no source line under it. The
// entries are the frames the exception left between the handler that
// caught it and its raise (see pyrt.Frame): a comprehension is not a
// frame of its own, and an exception raised again with `raise e` (not a
// bare raise) counts its frame once. The last line, the class and the
// message, is CPython's exactly; chained exceptions (raise … from …, an
// exception raised in a handler) print as CPython's do.
func Traceback() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "traceback", Members: starlark.StringDict{
		"format_exc":            interp.NewBuiltin("format_exc", tbFormatExc),
		"print_exc":             interp.NewBuiltin("print_exc", tbPrintExc),
		"format_exception":      interp.NewBuiltin("format_exception", tbFormatException),
		"print_exception":       interp.NewBuiltin("print_exception", tbPrintException),
		"format_exception_only": interp.NewBuiltin("format_exception_only", tbFormatExceptionOnly),
		"format_tb":             interp.NewBuiltin("format_tb", tbFormatTB),
		"print_tb":              interp.NewBuiltin("print_tb", tbPrintTB),
		"extract_tb":            interp.NewBuiltin("extract_tb", tbExtractTB),
		"extract_stack":         interp.NewBuiltin("extract_stack", tbExtractStack),
		"format_stack":          interp.NewBuiltin("format_stack", tbFormatStack),
		"print_stack":           interp.NewBuiltin("print_stack", tbPrintStack),
		"format_list":           interp.NewBuiltin("format_list", tbFormatList),
	}}
}

// tbFile is the file every entry names: the program's code has none.
const tbFile = "<string>"

// recursiveCutoff is how many times CPython prints the same entry in a
// row before it counts the rest ("[Previous line repeated 3 more times]").
const recursiveCutoff = 3

// limitArg reads limit=None|int: ok false for None.
func limitArg(v starlark.Value) (n int, ok bool, err error) {
	if v == nil || v == starlark.None {
		return 0, false, nil
	}
	if err := starlark.AsInt(v, &n); err != nil {
		return 0, false, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
	}
	return n, true, nil
}

// limitFrames keeps the first limit entries, or the last -limit.
func limitFrames(frames []pyrt.Frame, limit starlark.Value) ([]pyrt.Frame, error) {
	n, ok, err := limitArg(limit)
	if err != nil || !ok {
		return frames, err
	}
	if n >= 0 {
		return frames[:min(n, len(frames))], nil
	}
	return frames[max(0, len(frames)+n):], nil
}

// formatFrames is the text of entries, one string each, a run of the
// same entry shortened as CPython shortens it.
func formatFrames(b *interp.Budget, frames []pyrt.Frame) ([]string, error) {
	var out []string
	var last pyrt.Frame
	count := 0
	flush := func() {
		if count > recursiveCutoff {
			n := count - recursiveCutoff
			s := "s"
			if n == 1 {
				s = ""
			}
			out = append(out, fmt.Sprintf("  [Previous line repeated %d more time%s]\n", n, s))
		}
	}
	for i, f := range frames {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		if i == 0 || f != last {
			flush()
			last, count = f, 0
		}
		count++
		if count <= recursiveCutoff {
			out = append(out, fmt.Sprintf("  File \"%s\", line %d, in %s\n", tbFile, f.Line, f.Name))
		}
	}
	flush()
	return out, nil
}

// exceptionOnly is CPython's last lines for an exception: "ValueError:
// message\n", or the class alone when the message is empty, then a line
// for each line of its notes; for None, "NoneType: None\n".
func exceptionOnly(b *interp.Budget, v starlark.Value) ([]string, error) {
	e, ok := v.(*pyrt.ExcValue)
	if !ok {
		text, err := interp.Str(b, v)
		if err != nil {
			return nil, err
		}
		return []string{pyrt.TypeName(v) + ": " + text + "\n"}, nil
	}
	msg, err := interp.Str(b, e)
	if err != nil {
		return nil, err
	}
	line := e.Class().QualName() + "\n"
	if msg != "" {
		line = e.Class().QualName() + ": " + msg + "\n"
	}
	out := []string{line}
	for _, note := range e.Notes() {
		for l := range strings.SplitSeq(note, "\n") {
			out = append(out, l+"\n")
		}
	}
	return out, nil
}

// formatException is the text of exc with its frames (a traceback
// header first when there are any) and, with chain, the exceptions it
// was raised from or while handling, first.
func formatException(b *interp.Budget, v starlark.Value, frames []pyrt.Frame, limit starlark.Value, chain bool) ([]string, error) {
	e, _ := v.(*pyrt.ExcValue)
	type part struct {
		msg    string
		exc    starlark.Value
		frames []pyrt.Frame
	}
	parts := []part{{exc: v, frames: frames}}
	if chain && e != nil {
		seen := map[*pyrt.ExcValue]bool{e: true}
		for cur := e; ; {
			next, msg := cur.Cause(), "\nThe above exception was the direct cause of the following exception:\n\n"
			if next == nil {
				next, msg = cur.Context(), "\nDuring handling of the above exception, another exception occurred:\n\n"
			}
			if next == nil || seen[next] {
				break
			}
			if err := b.Charge(1); err != nil {
				return nil, err
			}
			seen[next] = true
			parts[len(parts)-1].msg = msg
			parts = append(parts, part{exc: next, frames: next.Frames()})
			cur = next
		}
	}
	var out []string
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		fs, err := limitFrames(p.frames, limit)
		if err != nil {
			return nil, err
		}
		if len(fs) > 0 {
			out = append(out, "Traceback (most recent call last):\n")
			lines, err := formatFrames(b, fs)
			if err != nil {
				return nil, err
			}
			out = append(out, lines...)
		}
		last, err := exceptionOnly(b, p.exc)
		if err != nil {
			return nil, err
		}
		out = append(out, last...)
		// The message joining this exception to the one raised from
		// it or while handling it, which comes next.
		if i > 0 && parts[i-1].msg != "" {
			out = append(out, parts[i-1].msg)
		}
	}
	return out, nil
}

// excArgs reads the (exc, /, value, tb) of format_exception and
// print_exception: the exception and its entries.
func excArgs(fn string, exc, value, tb starlark.Value) (starlark.Value, []pyrt.Frame, error) {
	if (value == nil) != (tb == nil) {
		return nil, nil, pyrt.Errorf("ValueError", "Both or neither of value and tb must be given")
	}
	if value != nil {
		frames, err := tbFrames(tb)
		return value, frames, err
	}
	if exc == starlark.None {
		return starlark.None, nil, nil
	}
	e, ok := exc.(*pyrt.ExcValue)
	if !ok {
		return nil, nil, pyrt.Errorf("TypeError", "Exception expected for value, %s found", pyrt.TypeName(exc))
	}
	return e, e.Frames(), nil
}

// tbFrames are the entries of a traceback value (None has none).
func tbFrames(tb starlark.Value) ([]pyrt.Frame, error) {
	switch t := tb.(type) {
	case nil, starlark.NoneType:
		return nil, nil
	case *pyrt.Traceback:
		return t.Frames(), nil
	}
	return nil, pyrt.Errorf("TypeError", "'%s' object is not a traceback", pyrt.TypeName(tb))
}

func joinLines(lines []string) string { return strings.Join(lines, "") }

func textList(lines []string) starlark.Value {
	l := make([]starlark.Value, len(lines))
	for i, s := range lines {
		l[i] = interp.MakeString(s)
	}
	return starlark.NewList(l)
}

// handled is the exception being handled and its entries, None outside
// a handler.
func handled(thread *starlark.Thread) (starlark.Value, []pyrt.Frame) {
	if e := pyrt.Handling(thread); e != nil {
		return e, e.Frames()
	}
	return starlark.None, nil
}

func tbFormatExc(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var limit starlark.Value = starlark.None
	var chain starlark.Value = starlark.True
	if err := unpack("format_exc", args, kwargs, "limit?", &limit, "chain?", &chain); err != nil {
		return nil, err
	}
	exc, frames := handled(thread)
	lines, err := formatException(interp.BudgetOf(thread), exc, frames, limit, bool(chain.Truth()))
	if err != nil {
		return nil, err
	}
	return interp.MakeString(joinLines(lines)), nil
}

func tbPrintExc(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var limit, file starlark.Value = starlark.None, starlark.None
	var chain starlark.Value = starlark.True
	if err := unpack("print_exc", args, kwargs, "limit?", &limit, "file?", &file, "chain?", &chain); err != nil {
		return nil, err
	}
	exc, frames := handled(thread)
	lines, err := formatException(interp.BudgetOf(thread), exc, frames, limit, bool(chain.Truth()))
	if err != nil {
		return nil, err
	}
	return starlark.None, writeTo(thread, file, joinLines(lines))
}

// exceptionArgs binds (exc, /, value=, tb=, limit=None, [file=None,]
// chain=True).
func exceptionArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, withFile bool) (exc starlark.Value, frames []pyrt.Frame, limit, file starlark.Value, chain bool, err error) {
	var value, tb starlark.Value
	limit, file = starlark.None, starlark.None
	var chainV starlark.Value = starlark.True
	if len(args) == 0 {
		return nil, nil, nil, nil, false, pyrt.Errorf("TypeError", "%s() missing required positional argument: 'exc'", fn)
	}
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k == "exc" {
			return nil, nil, nil, nil, false, pyrt.Errorf("TypeError", "%s() got some positional-only arguments passed as keyword arguments: 'exc'", fn)
		}
	}
	pairs := []any{"value?", &value, "tb?", &tb, "limit?", &limit}
	if withFile {
		pairs = append(pairs, "file?", &file)
	}
	pairs = append(pairs, "chain?", &chainV)
	if err := unpack(fn, args[1:], kwargs, pairs...); err != nil {
		return nil, nil, nil, nil, false, err
	}
	exc, frames, err = excArgs(fn, args[0], value, tb)
	return exc, frames, limit, file, bool(chainV.Truth()), err
}

func tbFormatException(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	exc, frames, limit, _, chain, err := exceptionArgs("format_exception", args, kwargs, false)
	if err != nil {
		return nil, err
	}
	lines, err := formatException(interp.BudgetOf(thread), exc, frames, limit, chain)
	if err != nil {
		return nil, err
	}
	return textList(lines), nil
}

func tbPrintException(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	exc, frames, limit, file, chain, err := exceptionArgs("print_exception", args, kwargs, true)
	if err != nil {
		return nil, err
	}
	lines, err := formatException(interp.BudgetOf(thread), exc, frames, limit, chain)
	if err != nil {
		return nil, err
	}
	return starlark.None, writeTo(thread, file, joinLines(lines))
}

func tbFormatExceptionOnly(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "format_exception_only() missing required positional argument: 'exc'")
	}
	var value starlark.Value
	if err := unpack("format_exception_only", args[1:], kwargs, "value?", &value); err != nil {
		return nil, err
	}
	if value == nil {
		value = args[0]
	}
	lines, err := exceptionOnly(interp.BudgetOf(thread), value)
	if err != nil {
		return nil, err
	}
	return textList(lines), nil
}

func tbFormatTB(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	lines, err := tbLines(thread, "format_tb", args, kwargs, nil)
	if err != nil {
		return nil, err
	}
	return textList(lines), nil
}

func tbPrintTB(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value = starlark.None
	lines, err := tbLines(thread, "print_tb", args, kwargs, &file)
	if err != nil {
		return nil, err
	}
	return starlark.None, writeTo(thread, file, joinLines(lines))
}

// tbLines binds (tb, limit=None[, file=None]) and formats tb's entries.
func tbLines(thread *starlark.Thread, fn string, args starlark.Tuple, kwargs []starlark.Tuple, file *starlark.Value) ([]string, error) {
	var tb starlark.Value
	var limit starlark.Value = starlark.None
	pairs := []any{"tb", &tb, "limit?", &limit}
	if file != nil {
		pairs = append(pairs, "file?", file)
	}
	if err := unpack(fn, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	frames, err := tbFrames(tb)
	if err != nil {
		return nil, err
	}
	if frames, err = limitFrames(frames, limit); err != nil {
		return nil, err
	}
	return formatFrames(interp.BudgetOf(thread), frames)
}

func tbExtractTB(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var tb starlark.Value
	var limit starlark.Value = starlark.None
	if err := unpack("extract_tb", args, kwargs, "tb", &tb, "limit?", &limit); err != nil {
		return nil, err
	}
	frames, err := tbFrames(tb)
	if err != nil {
		return nil, err
	}
	if frames, err = limitFrames(frames, limit); err != nil {
		return nil, err
	}
	return summaries(thread, frames)
}

// stackFrames binds (f=None, limit=None[, file=None]) and returns the
// entries of the calls that led to the caller, the last limit of them.
func stackFrames(thread *starlark.Thread, fn string, args starlark.Tuple, kwargs []starlark.Tuple, file *starlark.Value) ([]pyrt.Frame, error) {
	var f starlark.Value = starlark.None
	var limit starlark.Value = starlark.None
	pairs := []any{"f?", &f, "limit?", &limit}
	if file != nil {
		pairs = append(pairs, "file?", file)
	}
	if err := unpack(fn, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if f != starlark.None {
		return nil, pyrt.Errorf("TypeError", "%s(): frame objects are not available; call it with no f", fn)
	}
	frames := pyrt.CallerFrames(thread)
	if err := interp.BudgetOf(thread).Charge(uint64(len(frames))); err != nil {
		return nil, err
	}
	// A stack's limit keeps the innermost entries.
	n, ok, err := limitArg(limit)
	if err != nil || !ok {
		return frames, err
	}
	if n < 0 {
		n = -n
	}
	return frames[max(0, len(frames)-n):], nil
}

func tbExtractStack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	frames, err := stackFrames(thread, "extract_stack", args, kwargs, nil)
	if err != nil {
		return nil, err
	}
	return summaries(thread, frames)
}

func tbFormatStack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	frames, err := stackFrames(thread, "format_stack", args, kwargs, nil)
	if err != nil {
		return nil, err
	}
	lines, err := formatFrames(interp.BudgetOf(thread), frames)
	if err != nil {
		return nil, err
	}
	return textList(lines), nil
}

func tbPrintStack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value = starlark.None
	frames, err := stackFrames(thread, "print_stack", args, kwargs, &file)
	if err != nil {
		return nil, err
	}
	lines, err := formatFrames(interp.BudgetOf(thread), frames)
	if err != nil {
		return nil, err
	}
	return starlark.None, writeTo(thread, file, joinLines(lines))
}

// tbFormatList is format_list(extracted_list): the text of FrameSummary
// values or (filename, lineno, name, line) tuples.
func tbFormatList(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var list starlark.Value
	if err := unpack("format_list", args, kwargs, "extracted_list", &list); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	var out []string
	err := pyrt.ForEach(thread, list, func(x starlark.Value) (bool, error) {
		seq, ok := x.(starlark.Indexable)
		if !ok || seq.Len() != 4 {
			return true, pyrt.Errorf("ValueError", "format_list(): an entry is a FrameSummary or a (filename, lineno, name, line) tuple")
		}
		file, err := interp.Str(b, seq.Index(0))
		if err != nil {
			return true, err
		}
		lineno, err := interp.Str(b, seq.Index(1))
		if err != nil {
			return true, err
		}
		name, err := interp.Str(b, seq.Index(2))
		if err != nil {
			return true, err
		}
		s := fmt.Sprintf("  File \"%s\", line %s, in %s\n", file, lineno, name)
		if line, ok := interp.AsText(seq.Index(3)); ok && strings.TrimSpace(line) != "" {
			s += "    " + strings.TrimSpace(line) + "\n"
		}
		if err := b.Charge(uint64(len(s))); err != nil {
			return true, err
		}
		out = append(out, s)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return textList(out), nil
}

// summaries is a StackSummary: a list of FrameSummary values.
func summaries(thread *starlark.Thread, frames []pyrt.Frame) (starlark.Value, error) {
	if err := interp.BudgetOf(thread).Alloc(int64(len(frames)) * 64); err != nil {
		return nil, err
	}
	l := make([]starlark.Value, len(frames))
	for i, f := range frames {
		l[i] = &frameSummary{f: f}
	}
	return starlark.NewList(l), nil
}

// frameSummary is traceback.FrameSummary: filename, lineno, name and
// line (” here: the code has no file), also unpacked as a 4-tuple.
type frameSummary struct{ f pyrt.Frame }

var (
	_ starlark.Indexable  = (*frameSummary)(nil)
	_ starlark.HasAttrs   = (*frameSummary)(nil)
	_ starlark.Comparable = (*frameSummary)(nil)
)

func (s *frameSummary) String() string {
	return fmt.Sprintf("<FrameSummary file %s, line %d in %s>", tbFile, s.f.Line, s.f.Name)
}
func (s *frameSummary) Type() string          { return "FrameSummary" }
func (s *frameSummary) Freeze()               {}
func (s *frameSummary) Truth() starlark.Bool  { return true }
func (s *frameSummary) Hash() (uint32, error) { return s.tuple().Hash() }
func (s *frameSummary) Len() int              { return 4 }
func (s *frameSummary) Index(i int) starlark.Value {
	return s.tuple()[i]
}
func (s *frameSummary) Iterate() starlark.Iterator { return s.tuple().Iterate() }
func (s *frameSummary) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, s.tuple(), y.(*frameSummary).tuple(), depth)
}

func (s *frameSummary) tuple() starlark.Tuple {
	return starlark.Tuple{starlark.String(tbFile), starlark.MakeInt(s.f.Line), starlark.String(s.f.Name), starlark.String("")}
}

func (s *frameSummary) Attr(name string) (starlark.Value, error) {
	switch name {
	case "filename":
		return starlark.String(tbFile), nil
	case "lineno":
		return starlark.MakeInt(s.f.Line), nil
	case "name":
		return starlark.String(s.f.Name), nil
	case "line":
		return starlark.String(""), nil
	case "locals":
		return starlark.None, nil
	}
	return nil, nil
}

func (s *frameSummary) AttrNames() []string {
	return []string{"filename", "line", "lineno", "locals", "name"}
}
